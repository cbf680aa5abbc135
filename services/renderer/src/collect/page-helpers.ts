/**
 * Helpers for code that runs inside the page. Everything here must be self-contained plain
 * JavaScript once types are stripped: `runInPage` sends the functions' source to the page
 * (`PAGE_HELPERS_SOURCE`, both factories merged into one object).
 */

/** Where an element sits and what it looks like: region, box, visibility, names around it, design role. */
export function elementHelpers() {
  const REGION_BY_TAG: Record<string, string> = { HEADER: 'header', NAV: 'nav', FOOTER: 'footer', ASIDE: 'aside', MAIN: 'main' };
  const REGION_BY_ROLE: Record<string, string> = { banner: 'header', navigation: 'nav', contentinfo: 'footer', complementary: 'aside', main: 'main' };

  /** The parent element, across a shadow root's boundary to its host (web components). */
  function parentOf(n: Element): Element | null {
    return n.parentElement ?? ((n.parentNode as ShadowRoot | null)?.host || null);
  }

  function regionOf(el: Element): 'header' | 'nav' | 'main' | 'aside' | 'footer' | 'other' {
    for (let n: Element | null = el; n; n = parentOf(n)) {
      const byRole = REGION_BY_ROLE[n.getAttribute('role') ?? ''];
      if (byRole) return byRole as 'header';
      const byTag = REGION_BY_TAG[n.tagName];
      if (byTag) return byTag as 'header';
    }
    return 'other';
  }

  /** Box in document coordinates, rounded to 0.1 px. */
  function boxOf(el: Element): { x: number; y: number; width: number; height: number } | null {
    const r = el.getBoundingClientRect();
    if (!r || (r.width === 0 && r.height === 0 && r.x === 0 && r.y === 0)) return null;
    const round = (v: number): number => Math.round(v * 10) / 10;
    return { x: round(r.left + window.scrollX), y: round(r.top + window.scrollY), width: round(Math.max(0, r.width)), height: round(Math.max(0, r.height)) };
  }

  function isVisible(el: Element): boolean {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.visibility === 'collapse' || Number(cs.opacity) === 0) return false;
    // checkVisibility also covers display:none and content-visibility on ancestors.
    const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
    return check ? check.call(el, { opacityProperty: true, visibilityProperty: true }) : true;
  }

  function ancestorHints(el: Element): string {
    const hints: string[] = [];
    let n = parentOf(el);
    for (let i = 0; i < 3 && n && n !== document.body; i++, n = parentOf(n)) {
      for (const a of ['id', 'class', 'alt']) {
        const v = n.getAttribute(a);
        if (v) hints.push(v.trim());
      }
    }
    return hints.join(' ').replace(/\s+/g, ' ').slice(0, 500);
  }

  /** Which part of the design an element's style belongs to, most specific first. */
  function roleOf(el: Element): 'button' | 'link' | 'heading' | 'header' | 'nav' | 'footer' | 'body' | 'other' {
    if (el.closest('button, [role=button], input[type=submit], input[type=button], .btn, .button')) return 'button';
    if (el.closest('a[href]')) return 'link';
    if (el.closest('h1, h2, h3, h4, h5, h6, [role=heading]')) return 'heading';
    const region = regionOf(el);
    if (region === 'header' || region === 'nav' || region === 'footer') return region;
    if (el === document.body || el === document.documentElement || el.closest('main, article, p, li, td, section')) return 'body';
    return 'other';
  }

  /**
   * The open shadow roots of the page's web components, nested ones included, in document order of
   * their hosts. What they hold is shown on screen but is in neither innerText nor querySelectorAll.
   * Finding them walks every element (11 ms for 40 000 on this machine), so the list is kept on the
   * page for the next collector of the same read (a new document starts without it).
   */
  function shadowRoots(): ShadowRoot[] {
    const key = Symbol.for('enrich.shadowRoots');
    const w = window as unknown as Record<symbol, ShadowRoot[] | undefined>;
    const known = w[key];
    if (known) return known;
    const roots: ShadowRoot[] = [];
    const visit = (scope: Document | ShadowRoot): void => {
      for (const el of Array.from(scope.querySelectorAll('*'))) {
        if (el.shadowRoot && roots.length < 5_000) {
          roots.push(el.shadowRoot);
          visit(el.shadowRoot);
        }
      }
    };
    visit(document);
    w[key] = roots;
    return roots;
  }

  /** querySelectorAll over the document and every open shadow root (`roots` from shadowRoots()). */
  function allOf(selector: string, roots: readonly ShadowRoot[]): Element[] {
    const found = Array.from(document.querySelectorAll(selector));
    for (const root of roots) found.push(...Array.from(root.querySelectorAll(selector)));
    return found;
  }

  return { regionOf, boxOf, isVisible, ancestorHints, roleOf, shadowRoots, allOf };
}

/** Attributes and links read safely, and the registry of elements to screenshot later. */
export function linkHelpers() {
  function abs(href: string | null | undefined): string | null {
    if (!href) return null;
    const h = href.trim();
    if (/^(mailto|tel|data|sms):/i.test(h)) return h;
    if (/^javascript:/i.test(h)) return null;
    try {
      return new URL(h, document.baseURI).href;
    } catch {
      return null;
    }
  }

  function closestHref(el: Element): string | null {
    const a = el.closest('a[href]');
    return a ? abs(a.getAttribute('href')) : null;
  }

  function attr(el: Element, name: string): string | null {
    const v = el.getAttribute(name);
    return v === null ? null : v.slice(0, 1000);
  }

  /** Elements the renderer may screenshot later, by kind and index (`img:3`, `svg:0`). */
  function registry(): { img: Element[]; svg: Element[] } {
    const key = Symbol.for('enrich.elements');
    const w = window as unknown as Record<symbol, { img: Element[]; svg: Element[] }>;
    if (!w[key]) w[key] = { img: [], svg: [] };
    return w[key];
  }

  return { abs, closestHref, attr, registry };
}

export type PageHelpers = ReturnType<typeof elementHelpers> & ReturnType<typeof linkHelpers>;

/** The expression that builds the helpers in the page. */
export const PAGE_HELPERS_SOURCE = `Object.assign((${elementHelpers.toString()})(), (${linkHelpers.toString()})())`;
