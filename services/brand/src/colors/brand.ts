/**
 * brand_colors: the palette of the rasterised primary logo when there is one (source `logo`),
 * else the page's accent colors (source `screenshot`). A logo made only of neutrals (a white
 * wordmark on a dark header, a black one on white) yields to the page's accents when the page has
 * any; only when both are neutral is the brand taken to be monochrome.
 */
import type { ColorEntry, Snapshot } from '@enrich/shared/contracts';
import { pageAccentColors } from './accents.ts';
import { logoPalette } from './logo.ts';
import { parseCssColor } from './parse.ts';
import { isNeutral, rgbToOklab } from './oklab.ts';
import { decodePng } from './pixels.ts';
import { metaContent } from '@enrich/shared/page';

function hasAccent(entries: readonly ColorEntry[]): boolean {
  return entries.some((e) => {
    const c = parseCssColor(e.hex);
    return c !== null && !isNeutral(rgbToOklab(c));
  });
}

export async function brandColors(snapshot: Snapshot, primaryRefs: readonly string[]): Promise<ColorEntry[]> {
  const raster = snapshot.logoRasters.find((r) => primaryRefs.includes(r.ref));
  const image = raster ? await decodePng(raster.png) : null;
  const fromLogo = image ? logoPalette(image) : [];
  if (fromLogo.length > 0 && hasAccent(fromLogo)) return fromLogo;
  const fromPage = pageAccentColors({
    samples: snapshot.styles.colors,
    themeColor: metaContent(snapshot, 'theme-color'),
    rootVariables: snapshot.styles.rootVariables,
    stylesheets: snapshot.stylesheets.map((s) => s.text),
  });
  if (fromLogo.length > 0 && !hasAccent(fromPage)) return fromLogo;
  return fromPage.length > 0 ? fromPage : fromLogo;
}
