/**
 * Hides cookie-consent banners and chat widgets before screenshots and style sampling: they cover
 * the page and their colors are not the brand's. Known vendors by selector, others by a heuristic
 * (fixed/sticky layers whose text talks about cookies or consent).
 */
import type { Page } from 'playwright-core';

const KNOWN_OVERLAYS = [
  '#onetrust-consent-sdk', '#onetrust-banner-sdk', '#CybotCookiebotDialog', '#CybotCookiebotDialogBodyUnderlay', '#usercentrics-root',
  '#didomi-host', '.qc-cmp2-container', '#qc-cmp2-container', '.cc-window', '.cc-banner', '#cookie-law-info-bar', '#cookie-notice',
  '#cookiescript_injected', '.cky-consent-container', '#truste-consent-track', '.truste_overlay', '.truste_box_overlay', '#sp_message_container',
  '[id^="sp_message_container"]', '.osano-cm-window', '#hs-eu-cookie-confirmation', '.iubenda-cs-container', '#iubenda-cs-banner', '#cmpbox', '#cmpbox2',
  '#intercom-container', '.intercom-lightweight-app', '#hubspot-messages-iframe-container', '#drift-widget-container', '#drift-frame-controller',
  '.drift-frame-controller', '#crisp-chatbox', '.crisp-client', '#tidio-chat', '#zsiq_float', '.zsiq_floatmain', 'iframe[src*="tawk.to"]',
  '#launcher', '#fc_frame', '#chat-widget-container', '#livechat-compact-container', '.olark-launcher', '#beacon-container',
];

export async function hideOverlays(page: Page): Promise<number> {
  return page
    .evaluate((known) => {
      let hidden = 0;
      const hide = (el: Element): void => {
        (el as HTMLElement).style.setProperty('display', 'none', 'important');
        hidden++;
      };
      for (const sel of known) {
        try {
          document.querySelectorAll(sel).forEach(hide);
        } catch { /* selector unsupported */ }
      }
      const CONSENT = /cookie|consent|gdpr|datenschutz|privacy preferences|we use cookies|accept all/i;
      for (const el of Array.from(document.querySelectorAll('body *')).slice(0, 20_000)) {
        const cs = getComputedStyle(el);
        if (cs.position !== 'fixed' && cs.position !== 'sticky') continue;
        if (el.closest('header, nav, [role=banner], [role=navigation]')) continue;
        const text = ((el as HTMLElement).innerText || '').slice(0, 3000);
        if (text && CONSENT.test(text) && text.length < 3000) hide(el);
      }
      // Consent walls often lock scrolling on the root; undo it so full-page captures show the page.
      if (hidden > 0) for (const root of [document.documentElement, document.body]) {
        if (root && getComputedStyle(root).overflow === 'hidden') root.style.setProperty('overflow', 'visible', 'important');
      }
      return hidden;
    }, KNOWN_OVERLAYS)
    .catch(() => 0);
}
