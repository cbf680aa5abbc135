/** Computed colors and fonts of visible elements, weighted by on-screen area, and :root custom properties. */
import type { PageHelpers } from './page-helpers.ts';

export interface StyleLimits {
  colorSamples: number;
  fontSamples: number;
  maxElements: number;
  extraVariableNames: string[];
}

/** Runs in the page with STYLE_PARTS (runInPage). */
export function collectStyles(h: PageHelpers, L: StyleLimits) {
  const truncated: string[] = [];
  const colors = new Map<string, { value: string; property: string; role: string; area: number; count: number }>();
  const fonts = new Map<string, { family: string; role: string; area: number; count: number }>();
  const transparent = (v: string): boolean => !v || v === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(v) || v === 'none';
  const add = (value: string, property: string, role: string, area: number): void => {
    if (transparent(value) || area <= 0) return;
    const key = `${value}|${property}|${role}`;
    const s = colors.get(key);
    if (s) {
      s.area += area;
      s.count++;
    } else colors.set(key, { value: value.slice(0, 100), property, role, area, count: 1 });
  };
  const docW = document.documentElement.scrollWidth;
  const docH = document.documentElement.scrollHeight;
  const areaOf = (r: DOMRect): number => {
    const x0 = Math.max(0, r.left + window.scrollX),
      y0 = Math.max(0, r.top + window.scrollY);
    const x1 = Math.min(docW, r.right + window.scrollX),
      y1 = Math.min(docH, r.bottom + window.scrollY);
    return Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  };
  const range = document.createRange();
  const textArea = (el: Element): number => {
    let area = 0;
    for (const node of Array.from(el.childNodes)) {
      if (node.nodeType !== Node.TEXT_NODE || !(node.textContent ?? '').trim()) continue;
      range.selectNodeContents(node);
      for (const r of Array.from(range.getClientRects())) area += areaOf(r);
    }
    return area;
  };

  const all = [document.documentElement, ...Array.from(document.querySelectorAll('body, body *'))];
  if (all.length > L.maxElements) truncated.push('styles.elements');
  for (const el of all.slice(0, L.maxElements)) {
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|META|LINK|HEAD|TITLE|BR)$/.test(el.tagName)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || cs.display === 'none' || Number(cs.opacity) === 0) continue;
    const role = h.roleOf(el);
    const box = areaOf(rect);
    add(cs.backgroundColor, 'background-color', role, box);
    if (parseFloat(cs.borderTopWidth) > 0 || parseFloat(cs.borderBottomWidth) > 0 || parseFloat(cs.borderLeftWidth) > 0) {
      const perimeter = (rect.width + rect.height) * 2 * Math.max(parseFloat(cs.borderTopWidth) || 0, parseFloat(cs.borderLeftWidth) || 0, 1);
      if (cs.borderStyle !== 'none') add(cs.borderTopColor, 'border-color', role, perimeter);
    }
    if (el instanceof SVGElement) {
      if (cs.fill && cs.fill !== 'none' && !cs.fill.startsWith('url(')) add(cs.fill, 'fill', role, box);
      if (cs.stroke && cs.stroke !== 'none' && !cs.stroke.startsWith('url(')) add(cs.stroke, 'stroke', role, box * 0.1);
      continue;
    }
    const text = textArea(el);
    if (text > 0) {
      add(cs.color, 'color', role, text);
      const family = cs.fontFamily.slice(0, 500);
      const key = `${family}|${role}`;
      const f = fonts.get(key);
      if (f) {
        f.area += text;
        f.count++;
      } else fonts.set(key, { family, role, area: text, count: 1 });
    }
  }
  const byArea = <T extends { area: number }>(a: T, b: T): number => b.area - a.area;
  const colorList = Array.from(colors.values())
    .sort(byArea)
    .map((c) => ({ ...c, area: Math.round(c.area) }));
  const fontList = Array.from(fonts.values())
    .sort(byArea)
    .map((f) => ({ ...f, area: Math.round(f.area) }));
  if (colorList.length > L.colorSamples) truncated.push('styles.colors');
  if (fontList.length > L.fontSamples) truncated.push('styles.fonts');

  const rootVariables = rootVariablesOf(L.extraVariableNames);
  return { colors: colorList.slice(0, L.colorSamples), fonts: fontList.slice(0, L.fontSamples), rootVariables, truncated };
}

/**
 * Custom properties: Chromium enumerates them in computed style; readable sheets and the names
 * found in cross-origin sheet texts (passed in) cover what enumeration may miss.
 */
function rootVariablesOf(extraNames: string[]): Record<string, string> {
  const rootVariables: Record<string, string> = {};
  const names = new Set<string>(extraNames);
  for (const el of [document.documentElement, document.body]) {
    if (!el) continue;
    const cs = getComputedStyle(el);
    for (let i = 0; i < cs.length; i++) if (cs[i]!.startsWith('--')) names.add(cs[i]!);
  }
  const rootStyle = getComputedStyle(document.documentElement);
  const bodyStyle = document.body ? getComputedStyle(document.body) : rootStyle;
  for (const name of Array.from(names).slice(0, 2000)) {
    const value = (rootStyle.getPropertyValue(name) || bodyStyle.getPropertyValue(name)).trim();
    if (value) rootVariables[name] = value.slice(0, 500);
  }
  return rootVariables;
}

/** The functions collectStyles calls, sent to the page with it. */
export const STYLE_PARTS = [rootVariablesOf];
