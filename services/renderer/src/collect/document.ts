/** Document-level facts: HTML after JavaScript, head tags, JSON-LD, texts, the order of style and script sources. */
import type { PageHelpers } from './page-helpers.ts';

export interface DocumentLimits {
  htmlChars: number;
  metaTags: number;
  linkTags: number;
  jsonLdBlocks: number;
  jsonLdChars: number;
  urlChars: number;
  visibleTextChars: number;
  regionTextChars: number;
  headings: number;
  navLabels: number;
  stylesheets: number;
  scripts: number;
  scriptChars: number;
  stylesheetChars: number;
  withScripts: boolean;
}

export interface SourceRef {
  url: string | null;
  text: string | null;
}

/** Runs in the page with DOCUMENT_PARTS (runInPage). */
export function collectDocument(h: PageHelpers, L: DocumentLimits) {
  const truncated: string[] = [];
  const cut = <T>(name: string, list: T[], max: number): T[] => {
    if (list.length > max) truncated.push(name);
    return list.slice(0, max);
  };
  const clip = (name: string, s: string, max: number): string => {
    if (s.length > max) {
      if (!truncated.includes(name)) truncated.push(name);
      return s.slice(0, max);
    }
    return s;
  };
  const clean = (s: string | null | undefined): string =>
    (s ?? '')
      .replace(/[ \t\f\v\u00a0]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim();

  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  const roots = h.shadowRoots();
  const html = clip('html', doctype + outerHtmlOf(document.documentElement, roots), L.htmlChars);

  const meta = cut('meta', Array.from(document.querySelectorAll('meta[content]')), L.metaTags).map((m) => ({
    name: m.getAttribute('name'),
    property: m.getAttribute('property'),
    httpEquiv: m.getAttribute('http-equiv'),
    itemprop: m.getAttribute('itemprop'),
    content: clip('meta', m.getAttribute('content') ?? '', L.urlChars),
  }));

  const links = cut('links', Array.from(document.querySelectorAll('link[href]')), L.linkTags).flatMap((l) => {
    const href = h.abs(l.getAttribute('href'));
    if (!href || href.length > L.urlChars) return [];
    return [
      { rel: (l.getAttribute('rel') ?? '').slice(0, 200), href, type: l.getAttribute('type'), sizes: l.getAttribute('sizes'), media: l.getAttribute('media') },
    ];
  });

  const jsonLd = cut('jsonLd', Array.from(document.querySelectorAll('script[type="application/ld+json" i]')), L.jsonLdBlocks).map((s) =>
    clip('jsonLd', s.textContent ?? '', L.jsonLdChars),
  );

  const styleSources = styleSourcesOf(h, L, clip);
  const scriptSources = L.withScripts ? scriptSourcesOf(h, L, clip) : [];
  const texts = textsOf(h, L, cut, clip, roots);
  // The order of these calls is the order of the names in `truncated`.
  const sources = { styleSources: cut('stylesheets', styleSources, L.stylesheets), scriptSources: cut('scripts', scriptSources, L.scripts) };
  const text = { ...texts, ...regionTextsOf(L, clip) };
  const body = document.body;

  const de = document.documentElement;
  return {
    title: clean(document.title).slice(0, 2000),
    lang: (de.getAttribute('lang') || null)?.slice(0, 50) ?? null,
    html,
    meta,
    links,
    jsonLd,
    ...sources,
    text,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    documentSize: {
      width: Math.max(de.scrollWidth, body ? body.scrollWidth : 0, window.innerWidth),
      height: Math.max(de.scrollHeight, body ? body.scrollHeight : 0, window.innerHeight),
    },
    truncated,
  };
}

type Cut = <T>(name: string, list: T[], max: number) => T[];
type Clip = (name: string, s: string, max: number) => string;

/** Style sources in cascade order: <link rel=stylesheet> texts come from the network, <style> texts from here. */
function styleSourcesOf(h: PageHelpers, L: DocumentLimits, clip: Clip): SourceRef[] {
  const styleSources: SourceRef[] = [];
  for (const node of Array.from(document.querySelectorAll('style, link[rel~="stylesheet" i][href]'))) {
    if (node.tagName === 'STYLE') {
      let text = node.textContent ?? '';
      // CSS-in-JS libraries insert rules through the CSSOM, leaving the element empty.
      if (!text.trim()) {
        try {
          const sheet = (node as HTMLStyleElement).sheet;
          if (sheet)
            text = Array.from(sheet.cssRules)
              .map((r) => r.cssText)
              .join('\n');
        } catch {
          /* unreadable sheet */
        }
      }
      if (text.trim()) styleSources.push({ url: null, text: clip('stylesheets', text, L.stylesheetChars) });
    } else {
      const href = h.abs(node.getAttribute('href'));
      if (href && /^https?:/.test(href)) styleSources.push({ url: href.slice(0, L.urlChars), text: null });
    }
  }
  for (const sheet of Array.from(document.adoptedStyleSheets ?? [])) {
    try {
      styleSources.push({
        url: null,
        text: clip(
          'stylesheets',
          Array.from(sheet.cssRules)
            .map((r) => r.cssText)
            .join('\n'),
          L.stylesheetChars,
        ),
      });
    } catch {
      /* unreadable sheet */
    }
  }
  return styleSources;
}

function scriptSourcesOf(h: PageHelpers, L: DocumentLimits, clip: Clip): SourceRef[] {
  const scriptSources: SourceRef[] = [];
  for (const s of Array.from(document.querySelectorAll('script'))) {
    const type = (s.getAttribute('type') ?? '').toLowerCase();
    if (type && !/javascript|ecmascript|module|jsx|babel/.test(type)) continue;
    const src = s.getAttribute('src');
    if (src) {
      const href = h.abs(src);
      if (href && /^https?:/.test(href)) scriptSources.push({ url: href.slice(0, L.urlChars), text: null });
    } else if ((s.textContent ?? '').trim()) scriptSources.push({ url: null, text: clip('scripts', s.textContent ?? '', L.scriptChars) });
  }
  return scriptSources;
}

/**
 * The element's markup, with the open shadow roots of its web components written in as declarative
 * shadow DOM (`<template shadowrootmode="open">`), which HTML parsers read as the host's content.
 */
function outerHtmlOf(el: Element, roots: readonly ShadowRoot[]): string {
  const withShadows = (el as Element & { getHTML?: (o: object) => string }).getHTML;
  if (!roots.length || !withShadows) return el.outerHTML;
  const shell = (el.cloneNode(false) as Element).outerHTML;
  const close = shell.lastIndexOf('</');
  return shell.slice(0, close) + withShadows.call(el, { shadowRoots: roots }) + shell.slice(close);
}

/** The visible text, headings and navigation labels. */
function textsOf(h: PageHelpers, L: DocumentLimits, cut: Cut, clip: Clip, roots: readonly ShadowRoot[]) {
  const clean = (s: string | null | undefined): string =>
    (s ?? '')
      .replace(/[ \t\f\v\u00a0]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim();
  // innerText parts table cells with a tab: a cell is a line of its own, as in the page's markup, so
  // that a name in one cell and a street in the next ("Ready Credit Used Cars", "32 Corporation
  // Street") do not read as one line.
  const lines = (s: string): string => clean(s.replace(/\t/g, '\n'));
  const body = document.body;
  // innerText stops at a web component's shadow root: each open root's own text follows the page's
  // (its slots show light-DOM children, which the page's text already has).
  const shadowTexts = roots.flatMap((root) =>
    Array.from(root.children)
      .filter((el) => !/^(STYLE|SCRIPT|TEMPLATE|LINK)$/.test(el.tagName))
      .map((el) => (el as HTMLElement).innerText ?? ''),
  );
  const visible = clip('text.visible', lines([body ? body.innerText : '', ...shadowTexts].join('\n')), L.visibleTextChars);
  const headings = cut('text.headings', h.allOf('h1, h2, h3, h4, h5, h6', roots), L.headings)
    .map((el) => ({ level: Number(el.tagName[1]), text: clean((el as HTMLElement).innerText || el.textContent).slice(0, 1000) }))
    .filter((x) => x.text);
  const nav = cut(
    'text.nav',
    h
      .allOf('nav a, header a, [role=navigation] a, [role=banner] a', roots)
      .map((a) => clean((a as HTMLElement).innerText || a.textContent).slice(0, 200))
      .filter(Boolean),
    L.navLabels,
  );
  return { visible, headings, nav };
}

/** The texts of the outermost header and footer regions. */
function regionTextsOf(L: DocumentLimits, clip: Clip) {
  const clean = (s: string | null | undefined): string =>
    (s ?? '')
      .replace(/[ \t\f\v\u00a0]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim();
  const regionText = (selector: string, name: string): string =>
    clip(
      name,
      Array.from(document.querySelectorAll(selector))
        .filter((el) => !el.parentElement?.closest(selector))
        // Table cells (innerText's tabs) are lines of their own, as in the visible text.
        .map((el) => clean((el as HTMLElement).innerText.replace(/\t/g, '\n')))
        .filter(Boolean)
        .join('\n'),
      L.regionTextChars,
    );
  return { header: regionText('header, [role=banner]', 'text.header'), footer: regionText('footer, [role=contentinfo]', 'text.footer') };
}

/** The functions collectDocument calls, sent to the page with it. */
export const DOCUMENT_PARTS = [outerHtmlOf, styleSourcesOf, scriptSourcesOf, textsOf, regionTextsOf];
