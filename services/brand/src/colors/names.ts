/** The nearest named color, by OKLab distance, from the shipped list (named-colors.ts). */
import { NAMED_COLORS } from './named-colors.ts';
import { labDistance, rgbToOklab, type Lab } from './oklab.ts';
import type { Rgb } from './parse.ts';

type NamedColor = { name: string; lab: Lab };

let table: NamedColor[] | null = null;

function namedColors(): NamedColor[] {
  table ??= NAMED_COLORS.map((entry) => {
    const hex = entry.slice(0, 6);
    const n = parseInt(hex, 16);
    return { name: entry.slice(7), lab: rgbToOklab({ r: n >> 16, g: (n >> 8) & 255, b: n & 255 }) };
  });
  return table;
}

export function nearestColorName(rgb: Rgb): string {
  const lab = rgbToOklab(rgb);
  let best = namedColors()[0]!;
  let bestDistance = Infinity;
  for (const c of namedColors()) {
    const d = labDistance(lab, c.lab);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best.name;
}
