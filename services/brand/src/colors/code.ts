/**
 * Colors written in the page's source code, for `code_colors`: distinct `#RRGGBB` values ordered by
 * how often they occur (ties: first occurrence first).
 *
 * - css: declaration values in every stylesheet (external and `<style>` blocks); custom
 *   properties resolved through `var()` from the sheets' own `--x:` declarations and the computed
 *   root variables; named colors only in color-bearing properties, so `font-family: Tomato` is no
 *   color.
 * - html: inline `style="..."` attributes and the presentational color attributes (`color`,
 *   `bgcolor`, `text`, `link`, `fill`, `stroke`, `stop-color`, ...). `<style>` blocks are CSS and
 *   are counted there, not twice.
 * - javascript: hex, rgb()/hsl() literals anywhere in the scripts; named colors are not read
 *   because words like "red" or "tan" in code are far more often not colors.
 *
 * Pages can carry megabytes of CSS and script, and hostile ones are built to stall regexes: every
 * scan here is a hand-written loop or a regex with bounded quantifiers and no nested repetition,
 * so the work is linear in the (already size-capped) input.
 */
import { decodeEntities } from '@enrich/shared/page';
import { parseCssColor, toHex, type Rgba } from './parse.ts';

/** Distinct colors reported per source kind; beyond this the list stops being a palette. */
const MAX_COLORS = 100;
const MAX_VAR_DEPTH = 8;

const TOKEN = /#([0-9a-f]{3,8})(?![\w-])|\b((?:rgb|hsl)a?)\(([^()]{0,80})\)|\bvar\(\s*(--[\w-]{1,100})\s*(?:,([^()]{0,100}))?\)|\b([a-z]{3,20})\b/gi;

const COLOR_PROPERTY = /color|background|border|outline|fill|stroke|shadow|text-decoration|column-rule|caret|^--/i;

/** CSS named colors, without `transparent` and friends. */
const NAMED = new Set(
  'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen'.split(
    ' ',
  ),
);

type Variables = ReadonlyMap<string, string>;

/** Counts colors in order of first sight; `top()` gives the frequency ranking. */
class ColorTally {
  readonly counts = new Map<string, number>();
  add(c: Rgba | null): void {
    if (!c) return;
    const hex = toHex(c);
    this.counts.set(hex, (this.counts.get(hex) ?? 0) + 1);
  }
  top(): string[] {
    return [...this.counts.entries()]
      .map(([hex, n], order) => ({ hex, n, order }))
      .sort((a, b) => b.n - a.n || a.order - b.order)
      .slice(0, MAX_COLORS)
      .map((e) => e.hex);
  }
}

/** The colors in one CSS value (or a run of script text), resolving var() through `variables`. */
function colorsInValue(value: string, variables: Variables, allowNames: boolean, depth = 0): Rgba[] {
  const found: Rgba[] = [];
  for (const m of value.matchAll(TOKEN)) {
    if (m[1] !== undefined) {
      if ([3, 4, 6, 8].includes(m[1].length)) push(found, parseCssColor('#' + m[1]));
    } else if (m[2] !== undefined) {
      push(found, parseCssColor(`${m[2]}(${m[3]})`));
    } else if (m[4] !== undefined) {
      const resolved = variables.get(m[4]) ?? m[5];
      if (resolved !== undefined && depth < MAX_VAR_DEPTH) found.push(...colorsInValue(resolved, variables, true, depth + 1));
    } else if (allowNames && m[6] !== undefined && NAMED.has(m[6].toLowerCase())) {
      push(found, parseCssColor(m[6]));
    }
  }
  return found;
}

function push(list: Rgba[], c: Rgba | null): void {
  if (c) list.push(c);
}

/** Removes `/* ... *\/` comments with indexOf, linear even for unterminated comments. */
export function stripCssComments(css: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const start = css.indexOf('/*', from);
    if (start < 0) return out + css.slice(from);
    out += css.slice(from, start);
    const end = css.indexOf('*/', start + 2);
    if (end < 0) return out;
    from = end + 2;
  }
}

export type Declaration = { property: string; value: string };

/** The `property: value` declarations of a stylesheet; selectors and at-rule preludes are skipped. */
export function cssDeclarations(css: string): Declaration[] {
  const text = stripCssComments(css);
  const declarations: Declaration[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text[i] : ';';
    if (ch !== ';' && ch !== '{' && ch !== '}') continue;
    if (ch !== '{') {
      const segment = text.slice(start, i);
      const colon = segment.indexOf(':');
      if (colon > 0) {
        const property = segment.slice(0, colon).trim();
        if (/^(--)?[a-z-]{1,60}$/i.test(property)) declarations.push({ property: property.toLowerCase(), value: segment.slice(colon + 1) });
      }
    }
    start = i + 1;
  }
  return declarations;
}

/** Custom properties from the sheets, overridden by the computed root variables (what the browser resolved). */
export function customProperties(declarations: readonly Declaration[], rootVariables: Record<string, string>): Map<string, string> {
  const vars = new Map<string, string>();
  for (const d of declarations) if (d.property.startsWith('--')) vars.set(d.property, d.value.trim());
  for (const [k, v] of Object.entries(rootVariables)) vars.set(k, v);
  return vars;
}

export function extractCssColors(sheets: readonly string[], rootVariables: Record<string, string>): string[] {
  return cssColorTally(sheets, rootVariables).top();
}

/** How often each color occurs in the sheets, in order of first sight (for accents when no computed styles exist). */
export function cssColorCounts(sheets: readonly string[], rootVariables: Record<string, string>): Map<string, number> {
  return cssColorTally(sheets, rootVariables).counts;
}

function cssColorTally(sheets: readonly string[], rootVariables: Record<string, string>): ColorTally {
  const declarations = sheets.flatMap(cssDeclarations);
  const vars = customProperties(declarations, rootVariables);
  const tally = new ColorTally();
  for (const d of declarations) {
    for (const c of colorsInValue(d.value, vars, COLOR_PROPERTY.test(d.property))) tally.add(c);
  }
  return tally;
}

/** The color a single value stands for (a custom property's value, a theme-color), resolving var(). */
export function resolveColorValue(value: string, rootVariables: Record<string, string>): Rgba | null {
  return colorsInValue(value, customProperties([], rootVariables), true)[0] ?? null;
}

const HTML_COLOR_ATTRIBUTE =
  /\s(style|color|bgcolor|text|link|vlink|alink|fill|stroke|stop-color|flood-color)\s{0,5}=\s{0,5}(?:"([^"]{0,5000})"|'([^']{0,5000})'|([^\s>"']{1,100}))/gi;

export function extractHtmlColors(html: string, rootVariables: Record<string, string>): string[] {
  const vars = customProperties([], rootVariables);
  const tally = new ColorTally();
  for (const m of html.matchAll(HTML_COLOR_ATTRIBUTE)) {
    const value = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
    if (m[1]!.toLowerCase() === 'style') {
      for (const d of cssDeclarations(value)) {
        for (const c of colorsInValue(d.value, vars, COLOR_PROPERTY.test(d.property))) tally.add(c);
      }
    } else {
      tally.add(parseCssColor(value));
    }
  }
  return tally.top();
}

export function extractScriptColors(scripts: readonly string[]): string[] {
  const tally = new ColorTally();
  const none = new Map<string, string>();
  for (const s of scripts) for (const c of colorsInValue(s, none, false)) tally.add(c);
  return tally.top();
}
