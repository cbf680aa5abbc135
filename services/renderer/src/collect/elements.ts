/** Anchors, images (img and CSS backgrounds of notable elements) and inline SVGs, with on-screen boxes. */
import type { PageHelpers } from './page-helpers.ts';

export interface ElementLimits {
  anchors: number;
  anchorTextChars: number;
  images: number;
  svgs: number;
  svgMarkupChars: number;
  urlChars: number;
}

/** Runs in the page with ELEMENT_PARTS (runInPage); each part is a top-level function of the page script. */
export function collectElements(h: PageHelpers, L: ElementLimits) {
  const truncated: string[] = [];
  const reg = h.registry();
  reg.img = [];
  reg.svg = [];
  // Web components' open shadow roots hold links, images and icons too (h.shadowRoots).
  const roots = h.shadowRoots();
  const anchors = anchorsOf(h, L, truncated, roots);
  const images = imagesOf(h, L, truncated, reg.img, roots);
  backgroundImagesOf(h, L, truncated, reg.img, images);
  const svgs = svgsOf(h, L, truncated, reg.svg, roots);
  return { anchors, images, svgs, truncated };
}

function cleanText(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

function anchorsOf(h: PageHelpers, L: ElementLimits, truncated: string[], roots: readonly ShadowRoot[]) {
  const anchors = [];
  // An image map's areas are links too (a header's "Email" or social icons on older sites), named by their alt.
  for (const a of h.allOf('a[href], area[href]', roots)) {
    if (anchors.length >= L.anchors) {
      truncated.push('anchors');
      break;
    }
    const href = h.abs(a.getAttribute('href'));
    if (!href || href.length > L.urlChars) continue;
    const img = a.querySelector('img[alt]');
    anchors.push({
      href,
      text: cleanText((a as HTMLElement).innerText || a.textContent || img?.getAttribute('alt') || (a.tagName === 'AREA' ? a.getAttribute('alt') : null)).slice(
        0,
        L.anchorTextChars,
      ),
      title: h.attr(a, 'title'),
      ariaLabel: h.attr(a, 'aria-label'),
      rel: h.attr(a, 'rel'),
      region: h.regionOf(a),
      box: h.boxOf(a),
      visible: h.isVisible(a),
    });
  }
  return anchors;
}

/** Where an image or SVG sits: its names, box, visibility, region, link and ancestors' hints. */
function placementOf(h: PageHelpers, el: Element) {
  return {
    id: h.attr(el, 'id'),
    className: typeof el.className === 'string' ? el.className.slice(0, 1000) || null : h.attr(el, 'class'),
    title: h.attr(el, 'title') ?? (el.tagName.toLowerCase() === 'svg' ? cleanText(el.querySelector('title')?.textContent).slice(0, 1000) || null : null),
    ariaLabel: h.attr(el, 'aria-label'),
    box: h.boxOf(el),
    visible: h.isVisible(el),
    region: h.regionOf(el),
    linkHref: h.closestHref(el),
    ancestorHints: h.ancestorHints(el),
  };
}

type CollectedImage = ReturnType<typeof placementOf> & {
  index: number;
  src: string;
  alt: string | null;
  naturalWidth: number;
  naturalHeight: number;
  kind: 'img' | 'background';
};

function imagesOf(h: PageHelpers, L: ElementLimits, truncated: string[], registry: Element[], roots: readonly ShadowRoot[]): CollectedImage[] {
  const images: CollectedImage[] = [];
  // An image file drawn by <object data> or <embed src> (how many sites embedded their SVG logo).
  // Declared here: the page runs this function alone, without the module around it.
  const IMAGE_FILE = /\.(?:svg|png|jpe?g|gif|webp)(?:[?#]|$)/i;
  for (const el of h.allOf('img, object[data], embed[src]', roots)) {
    if (images.length >= L.images) {
      truncated.push('images');
      break;
    }
    if (!(el instanceof HTMLImageElement)) {
      const src = h.abs(el.getAttribute(el.tagName === 'OBJECT' ? 'data' : 'src'));
      if (!src || src.length > L.urlChars || !((el.getAttribute('type') ?? '').startsWith('image/') || IMAGE_FILE.test(src))) continue;
      const box = el.getBoundingClientRect();
      registry.push(el);
      // Named by an <object>'s fallback content ("Acme Widgets"), drawn at its box.
      const alt = el.tagName === 'OBJECT' ? cleanText(el.textContent).slice(0, 300) || null : h.attr(el, 'title');
      images.push({
        index: images.length,
        ...placementOf(h, el),
        src,
        alt,
        naturalWidth: Math.round(box.width),
        naturalHeight: Math.round(box.height),
        kind: 'img',
      });
      continue;
    }
    const img = el;
    // A lazy loader's placeholder (a data: pixel, or a file named for it: blank.gif, placeholder.svg,
    // lazy.png) stands for the file its data-src names until the loader's script swaps them; a page
    // whose loader never ran (blocked, or waiting for a scroll it never saw) still names its image.
    const lazy = h.abs(img.getAttribute('data-src')) || h.abs(img.getAttribute('data-lazy-src')) || h.abs(img.getAttribute('data-original'));
    const shown = img.currentSrc || h.abs(img.getAttribute('src'));
    const placeholder =
      !!lazy &&
      (!shown ||
        shown.startsWith('data:') ||
        /\/[^/?#]*(?:placeholder|blank|spacer|transparent|lazy|loading|pixel|empty)[^/?#]*\.(?:gif|png|svg|jpe?g|webp)(?:[?#]|$)/i.test(shown));
    const src = placeholder ? lazy : shown || lazy;
    if (!src || src.length > L.urlChars) continue;
    registry.push(img);
    images.push({
      index: images.length,
      ...placementOf(h, img),
      src,
      alt: img.getAttribute('alt'),
      // The placeholder's own size says nothing of the file's (a 1 px pixel would read as a tracker).
      naturalWidth: placeholder ? 0 : img.naturalWidth,
      naturalHeight: placeholder ? 0 : img.naturalHeight,
      kind: 'img',
    });
  }
  return images;
}

/** Backgrounds only of notable elements: logos and heroes are often CSS backgrounds, page chrome rarely matters. */
function backgroundImagesOf(h: PageHelpers, L: ElementLimits, truncated: string[], registry: Element[], images: CollectedImage[]): void {
  const NOTABLE = /logo|brand|hero|banner|masthead/i;
  for (const el of Array.from(document.querySelectorAll('body *')).slice(0, 20_000)) {
    if (images.length >= L.images) {
      if (!truncated.includes('images')) truncated.push('images');
      break;
    }
    if (el instanceof HTMLImageElement || el.closest('svg')) continue;
    const bg = getComputedStyle(el).backgroundImage;
    if (!bg || bg === 'none' || !bg.includes('url(')) continue;
    const box = el.getBoundingClientRect();
    // Its own names and those of two ancestors ("h1#logo > a" drawn by CSS, its text indented away).
    const hints = [el, el.parentElement, el.parentElement?.parentElement]
      .map((e) => (e ? `${e.id} ${typeof e.className === 'string' ? e.className : ''} ${e.getAttribute('aria-label') ?? ''}` : ''))
      .join(' ');
    const region = h.regionOf(el);
    // A link to the site's root drawn as a picture is the classic CSS logo.
    const link = el.closest('a');
    const home = !!link && link.host === location.host && /^\/(?:(?:index|default|home)\.\w+)?$/i.test(link.pathname);
    const notable = NOTABLE.test(hints) || home || region === 'header' || region === 'nav' || box.width * box.height >= 40_000;
    if (!notable || box.width < 8 || box.height < 8) continue;
    const match = /url\(\s*(['"]?)(.*?)\1\s*\)/.exec(bg);
    const src = match ? h.abs(match[2]) : null;
    if (!src || src.length > L.urlChars) continue;
    const probe = new Image();
    probe.src = src;
    registry.push(el);
    images.push({
      index: images.length,
      ...placementOf(h, el),
      src,
      alt: null,
      naturalWidth: probe.complete ? probe.naturalWidth : 0,
      naturalHeight: probe.complete ? probe.naturalHeight : 0,
      kind: 'background',
    });
  }
}

/** Inline <use href="#sprite"> targets so the markup stands alone for analysis. */
function inlineSpriteUses(clone: SVGSVGElement): void {
  for (const use of Array.from(clone.querySelectorAll('use'))) {
    const ref = use.getAttribute('href') ?? use.getAttribute('xlink:href');
    if (!ref || !ref.startsWith('#')) continue;
    const target = document.getElementById(ref.slice(1));
    if (!target) continue;
    const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    for (const child of Array.from(target.childNodes)) g.appendChild(child.cloneNode(true));
    if (target.getAttribute('viewBox') && !clone.getAttribute('viewBox')) clone.setAttribute('viewBox', target.getAttribute('viewBox')!);
    use.replaceWith(g);
  }
}

function svgsOf(h: PageHelpers, L: ElementLimits, truncated: string[], registry: Element[], roots: readonly ShadowRoot[]) {
  const svgs = [];
  for (const svg of h.allOf('svg', roots)) {
    if (svg.parentElement?.closest('svg')) continue;
    if (svgs.length >= L.svgs) {
      truncated.push('svgs');
      break;
    }
    const clone = svg.cloneNode(true) as SVGSVGElement;
    inlineSpriteUses(clone);
    const markup = clone.outerHTML;
    registry.push(svg);
    svgs.push({ index: svgs.length, ...placementOf(h, svg), markup: markup.slice(0, L.svgMarkupChars), truncated: markup.length > L.svgMarkupChars });
  }
  if (svgs.some((s) => s.truncated)) truncated.push('svgs.markup');
  return svgs;
}

/** The type of the page-side link collector, for collectors that call it by name (frames.ts). */
export type AnchorsOf = typeof anchorsOf;

export const ELEMENT_PARTS = [cleanText, anchorsOf, placementOf, imagesOf, backgroundImagesOf, inlineSpriteUses, svgsOf];
