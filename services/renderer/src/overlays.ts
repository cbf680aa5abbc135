/**
 * Cookie-consent banners, chat widgets and page loaders, dealt with before the wall check, the
 * snapshot and the screenshot: they cover the page, their colors are not the brand's and their text
 * is not the site's. A loader (a theme's full-screen "preloader" that a script fades out some time
 * after `load`) is waited for, up to LOADER_WAIT_MS, and hidden if it is still there: a screenshot
 * of a spinner is no screenshot of the site. Consent banners are REMOVED from the DOM (so the HTML,
 * texts, elements and styles the extractors get never contain them); a CMP that re-inserts its banner loses it again. Nothing is
 * clicked, so no consent is ever given. Chat widgets are only hidden. Known CMPs by selector,
 * others by a heuristic: a fixed/sticky layer outside the header/nav whose own words (not its
 * links') talk about cookies or consent, that offers a button and holds at most half the page's text.
 */
import type { Page } from 'playwright-core';

/** OneTrust, Cookiebot, Usercentrics, Didomi, Quantcast, TrustArc, Osano, CookieYes, Sourcepoint, Iubenda, consentmanager, HubSpot, Cookie Notice, Cookie Script, cookieconsent. */
export const CONSENT_SELECTORS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '#onetrust-pc-sdk',
  '.onetrust-pc-dark-filter',
  '#CybotCookiebotDialog',
  '#CybotCookiebotDialogBodyUnderlay',
  '#usercentrics-root',
  '#usercentrics-cmp-ui',
  '#didomi-host',
  '#didomi-popup',
  '#didomi-notice',
  '.qc-cmp2-container',
  '#qc-cmp2-container',
  '#truste-consent-track',
  '#truste-consent-content',
  '#consent_blackbar',
  '.truste_overlay',
  '.truste_box_overlay',
  '.osano-cm-window',
  '.osano-cm-dialog',
  '.cky-consent-container',
  '.cky-overlay',
  '.cky-modal',
  '#sp_message_container',
  '[id^="sp_message_container"]',
  '.iubenda-cs-container',
  '#iubenda-cs-banner',
  '#cmpbox',
  '#cmpbox2',
  '#hs-eu-cookie-confirmation',
  '.cc-window',
  '.cc-banner',
  '#cookie-law-info-bar',
  '#cookie-notice',
  '#cookiescript_injected',
];

const CHAT_SELECTORS = [
  '#intercom-container',
  '.intercom-lightweight-app',
  '#hubspot-messages-iframe-container',
  '#drift-widget-container',
  '#drift-frame-controller',
  '.drift-frame-controller',
  '#crisp-chatbox',
  '.crisp-client',
  '#tidio-chat',
  '#zsiq_float',
  '.zsiq_floatmain',
  'iframe[src*="tawk.to"]',
  'iframe#launcher', // Zendesk's; a site's own section may be called #launcher
  '#fc_frame',
  '#chat-widget-container',
  '#livechat-compact-container',
  '.olark-launcher',
  '#beacon-container',
];

/** How long a loader may take to go by itself once the page settled; then it is hidden. */
export const LOADER_WAIT_MS = 2_000;
/** Marks a loader layer between finding it and hiding it (removed again before anything is read). */
const LOADER_MARK = 'data-enrich-loader';

/**
 * Runs in the page (sent as source). Removes consent banners, hides chat widgets and marks loader
 * layers (LOADER_MARK): a fixed or absolute layer over at least 90 % of the viewport and topmost at
 * its center, with at most 40 characters of text, nothing to click or fill in (an age gate or a
 * newsletter modal has), no picture over a quarter of the viewport (a full-screen slider has), and
 * a loader's name on itself or a child (preloader, loader, loading, spinner, splash). Returns how many layers were removed or hidden, and how many loaders
 * were marked.
 */
function clearOverlays(sel: { consent: string[]; chat: string[]; mark: string }): { count: number; loaders: number } {
  let count = 0;
  const all = (selector: string): Element[] => {
    try {
      return Array.from(document.querySelectorAll(selector));
    } catch {
      return [];
    }
  };
  for (const s of sel.consent)
    for (const el of all(s)) {
      el.remove();
      count++;
    }
  for (const s of sel.chat)
    for (const el of all(s)) {
      (el as HTMLElement).style.setProperty('display', 'none', 'important');
      count++;
    }
  // English, and "we use cookies" / "consent" in the main European languages (a banner's own words, not a site's).
  const CONSENT =
    /we use cookies|use of cookies|cookies? (policy|settings|preferences|notice|consent)|accept (all )?cookies|allow (all )?cookies|\bconsent\b|\bgdpr\b|datenschutz|privacy (preferences|settings)|wir verwenden cookies|einwilligung|nous utilisons des cookies|consentement|utilizamos cookies|usamos cookies|consentimiento|utilizziamo (?:i )?cookie|utilizza (?:i )?cookie|consenso|wij gebruiken cookies|toestemming|używamy (?:plików )?cookie|zgod[ayę]|vi använder cookies|samtycke|vi bruger cookies|samtykke|käytämme evästeitä|evästeet|çerez/i;
  // A banner's own words, not its links': a fixed footer's "Cookie Policy" link is no banner.
  const ownWords = (el: Element, text: string): string => {
    let own = text;
    for (const a of Array.from(el.querySelectorAll('a')).slice(0, 200)) {
      const t = (a as HTMLElement).innerText;
      if (t) own = own.replace(t, ' ');
    }
    return own;
  };
  let pageText = -1;
  for (const el of Array.from(document.querySelectorAll('body *')).slice(0, 20_000)) {
    if (!el.isConnected) continue;
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' && cs.position !== 'sticky') continue;
    if (el.closest('header, nav, [role=banner], [role=navigation]')) continue;
    const text = ((el as HTMLElement).innerText || '').slice(0, 3001);
    if (!text || text.length > 3000 || !CONSENT.test(ownWords(el, text))) continue;
    if (!el.querySelector('button, [role=button], a, input[type=button], input[type=submit]')) continue;
    // A layer over the page is a small part of its text; one that holds most of it is the page (a
    // layout of fixed panes whose content mentions privacy settings or consent).
    if (pageText < 0) pageText = (document.body?.innerText || '').length;
    if (text.length > 0.5 * pageText) continue;
    el.remove();
    count++;
  }
  // A CMP that re-inserts its banner loses it again (an observer, so the snapshot never sees a trace of this).
  // Capped, so a page that re-adds whatever is removed cannot make the two loop forever.
  const joined = sel.consent.join(',');
  let removals = 0;
  const observer = new MutationObserver((records) => {
    for (const rec of records)
      for (const node of Array.from(rec.addedNodes)) {
        if (!(node instanceof Element)) continue;
        const found = node.matches(joined) ? [node] : Array.from(node.querySelectorAll(joined));
        for (const el of found) el.remove();
        removals += found.length;
      }
    if (removals > 50) observer.disconnect();
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  // Not a lazy loader's state class ("lazyloading" on an image): that is no layer over the page.
  const LOADER_NAME = /pre-?load|loader|(?<!lazy)loading|spinner|splash/i;
  const nameOf = (el: Element): string => `${el.id} ${typeof el.className === 'string' ? el.className : ''}`;
  const center = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
  let loaders = 0;
  for (let el = center; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
    const cs = getComputedStyle(el);
    if (cs.position !== 'fixed' && cs.position !== 'absolute') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 0.9 * innerWidth || r.height < 0.9 * innerHeight || r.left > 0.05 * innerWidth || r.top > 0.05 * innerHeight) continue;
    if (((el as HTMLElement).innerText || '').trim().length > 40) break;
    if (el.querySelector('a[href], button, input, select, textarea, iframe, video, form, [role=button]')) break;
    // A full-screen slider or hero shows a picture; a loader at most a small logo or spinner.
    const big = Array.from(el.querySelectorAll('img, picture, canvas, svg')).some((m) => {
      const b = m.getBoundingClientRect();
      return b.width * b.height > 0.25 * innerWidth * innerHeight;
    });
    if (big) break;
    if (![el, ...Array.from(el.children)].some((x) => LOADER_NAME.test(nameOf(x)))) continue;
    el.setAttribute(sel.mark, '');
    loaders++;
    break;
  }
  // Consent walls often lock scrolling on the root; undo it so full-page captures show the page.
  if (count > 0)
    for (const root of [document.documentElement, document.body]) {
      if (root && getComputedStyle(root).overflow === 'hidden') root.style.setProperty('overflow', 'visible', 'important');
    }
  return { count, loaders };
}

/** Runs in the page: whether no marked loader shows any more (gone, or hidden by the page's own script). */
function loadersGone(mark: string): boolean {
  return Array.from(document.querySelectorAll(`[${mark}]`)).every((el) => {
    const cs = getComputedStyle(el);
    return cs.display === 'none' || cs.visibility === 'hidden' || Number(cs.opacity) === 0;
  });
}

/** Runs in the page: hides the loaders still showing and unmarks them all; unlocks the scroll they locked. Returns how many it hid. */
function hideLoaders(mark: string): number {
  let hidden = 0;
  for (const el of Array.from(document.querySelectorAll(`[${mark}]`))) {
    const cs = getComputedStyle(el);
    if (cs.display !== 'none' && cs.visibility !== 'hidden' && Number(cs.opacity) !== 0) {
      (el as HTMLElement).style.setProperty('display', 'none', 'important');
      hidden++;
    }
    el.removeAttribute(mark);
  }
  if (hidden > 0)
    for (const root of [document.documentElement, document.body]) {
      if (root && getComputedStyle(root).overflow === 'hidden') root.style.setProperty('overflow', 'visible', 'important');
    }
  return hidden;
}

/** What hideOverlays did: layers removed or hidden, and what became of a page loader. */
export interface OverlaysCleared {
  layers: number;
  /** 'gone': the page took it away within the wait; 'hidden': it was still there and was hidden. */
  loader: 'none' | 'gone' | 'hidden';
  /** How long the loader was waited for. */
  loaderWaitMs: number;
}

/**
 * Clears the overlays; a loader gets up to `loaderWaitMs` to go by itself (the page then shows what
 * its script reveals with it), and is hidden if it has not.
 */
export async function hideOverlays(page: Page, loaderWaitMs = LOADER_WAIT_MS): Promise<OverlaysCleared> {
  const found = await page
    .evaluate(clearOverlays, { consent: CONSENT_SELECTORS, chat: CHAT_SELECTORS, mark: LOADER_MARK })
    .catch(() => ({ count: 0, loaders: 0 }));
  if (!found.loaders) return { layers: found.count, loader: 'none', loaderWaitMs: 0 };
  const waitStart = Date.now();
  if (loaderWaitMs > 0) await page.waitForFunction(loadersGone, LOADER_MARK, { timeout: loaderWaitMs, polling: 50 }).catch(() => undefined);
  const waited = Date.now() - waitStart;
  const forced = await page.evaluate(hideLoaders, LOADER_MARK).catch(() => 0);
  return { layers: found.count + Math.max(forced, found.loaders), loader: forced > 0 ? 'hidden' : 'gone', loaderWaitMs: waited };
}
