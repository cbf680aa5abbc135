/**
 * analyze.brand: a snapshot in, the seed's brand field groups out. Pure apart from PNG decoding;
 * every part is its own module (colors/, logos/, fonts, images, social).
 */
import type { BrandData, BrandRequest } from '@enrich/shared/contracts';
import { brandColors } from './colors/brand.ts';
import { extractCssColors, extractHtmlColors, extractScriptColors } from './colors/code.ts';
import { decodePng } from './colors/pixels.ts';
import { screenshotPalette } from './colors/screenshot.ts';
import { analyzeFonts } from './fonts.ts';
import { analyzeImages } from './images.ts';
import { analyzeLogos } from './logos.ts';
import { analyzeSocialLinks } from './social.ts';

export async function analyzeBrand(req: BrandRequest): Promise<BrandData> {
  const { snapshot, options } = req;
  const { logos, primary } = analyzeLogos(snapshot);
  const rootVariables = snapshot.styles.rootVariables;

  const [brand_colors, screenshot_colors] = await Promise.all([
    brandColors(snapshot, primary?.refs ?? []),
    (async () => {
      if (options.screenshotColors === null || !snapshot.thumbnail) return [];
      const image = await decodePng(snapshot.thumbnail.png);
      return image ? screenshotPalette(image, options.screenshotColors) : [];
    })(),
  ]);

  return {
    colors: {
      brand_colors,
      screenshot_colors,
      code_colors: {
        css: options.css
          ? extractCssColors(
              snapshot.stylesheets.map((s) => s.text),
              rootVariables,
            )
          : [],
        html: options.html ? extractHtmlColors(snapshot.html, rootVariables) : [],
        javascript: options.javascript ? extractScriptColors(snapshot.scripts.map((s) => s.text)) : [],
      },
    },
    fonts: analyzeFonts(snapshot),
    logos,
    images: { ...analyzeImages(snapshot, logos.primary?.url ?? null), screenshot_url: req.screenshotUrl, screenshot_colors },
    social_links: analyzeSocialLinks(snapshot),
  };
}
