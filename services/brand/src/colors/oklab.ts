/**
 * sRGB -> OKLab (Björn Ottosson, 2020). Distances in OKLab follow perceived difference far better
 * than distances in RGB, which is what clustering and naming need: two blues that look alike merge,
 * a dark grey and a dark navy do not.
 */
import type { Rgb } from './parse.ts';

export type Lab = { L: number; a: number; b: number };

const LINEAR = Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

export function rgbToOklab({ r, g, b }: Rgb): Lab {
  const lr = LINEAR[r]!,
    lg = LINEAR[g]!,
    lb = LINEAR[b]!;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return {
    L: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  };
}

export function labDistance(p: Lab, q: Lab): number {
  return Math.hypot(p.L - q.L, p.a - q.a, p.b - q.b);
}

export function chroma(p: Lab): number {
  return Math.hypot(p.a, p.b);
}

/**
 * Near-white, near-black and greys: what never outranks a real accent. The chroma bound lets
 * off-whites (#F7F7F2), slate greys (#64748B) and ink colors such as Tailwind's slate-900
 * (#0F172A, L 0.21) count as neutral while a dark but saturated navy (#1A237E) does not.
 */
export function isNeutral(p: Lab): boolean {
  const c = chroma(p);
  if (p.L > 0.94 || p.L < 0.25) return c < 0.06;
  return c < 0.035;
}
