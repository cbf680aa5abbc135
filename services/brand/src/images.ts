/**
 * The `images` group (without screenshot_colors, which comes from the color analysis).
 * assets: the images that represent the brand, in this order: og:image, twitter:image, the primary
 * logo (when it is a fetchable URL), then large visible images near the top of the page (hero
 * images). Deduplicated, absolute, never tracking pixels, spacers or tiny icons.
 */
import type { Image, Snapshot } from '@enrich/shared/contracts';
import { isTrackingImage } from '@enrich/shared/logos';
import { absoluteUrl, metaContent } from '@enrich/shared/page';

const MAX_ASSETS = 12;
const MAX_HEROES = 6;

function isHeroImage(img: Image, viewportHeight: number): boolean {
  if (!img.visible || img.src.startsWith('data:') || isTrackingImage(img)) return false;
  if (/avatar|gravatar|icon|sprite|emoji|badge|flag/i.test(`${img.src} ${img.className ?? ''}`)) return false;
  const w = img.box?.width || img.naturalWidth;
  const h = img.box?.height || img.naturalHeight;
  if (w < 300 || h < 150) return false;
  // Without layout every image looks "near the top"; then only header/main images count.
  if (img.box) return img.box.y < viewportHeight * 1.5;
  return img.region === 'header' || img.region === 'main' || img.region === 'other';
}

export type PageImages = { og_image: string; twitter_image: string; assets: string[] };

export function analyzeImages(snapshot: Pick<Snapshot, 'meta' | 'images' | 'finalUrl' | 'viewport'>, primaryLogoUrl: string | null): PageImages {
  const og = absoluteUrl(metaContent(snapshot, 'og:image', 'og:image:url', 'og:image:secure_url'), snapshot.finalUrl) ?? '';
  const twitter = absoluteUrl(metaContent(snapshot, 'twitter:image', 'twitter:image:src'), snapshot.finalUrl) ?? '';
  const heroes = snapshot.images
    .filter((img) => isHeroImage(img, snapshot.viewport.height))
    .slice(0, MAX_HEROES)
    .map((img) => img.src);
  const logo = primaryLogoUrl && /^https?:/i.test(primaryLogoUrl) ? primaryLogoUrl : null;
  const assets = [...new Set([og, twitter, logo, ...heroes].filter((u): u is string => !!u && /^https?:/i.test(u)))].slice(0, MAX_ASSETS);
  return { og_image: og, twitter_image: twitter, assets };
}
