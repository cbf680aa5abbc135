/**
 * Images that are not images: tracking pixels, spacers, analytics beacons. They are never logos
 * and never brand assets.
 */
import type { Image } from '../contracts/index.ts';

const TRACKER_HOSTS =
  /(^|\.)(google-analytics\.com|googletagmanager\.com|doubleclick\.net|googleadservices\.com|bat\.bing\.com|scorecardresearch\.com|quantserve\.com|adsrvr\.org|px\.ads\.linkedin\.com|ct\.pinterest\.com|analytics\.twitter\.com|t\.co|mc\.yandex\.ru|pixel\.wp\.com|stats\.wp\.com|facebook\.com|facebook\.net|hotjar\.com|criteo\.com|criteo\.net|taboola\.com|outbrain\.com|amazon-adsystem\.com|adnxs\.com|rubiconproject\.com|pubmatic\.com|krxd\.net|demdex\.net|omtrdc\.net|everesttech\.net|clarity\.ms|tiktok\.com|snapchat\.com|reddit\.com|mathtag\.com|bluekai\.com|exelator\.com|agkn\.com|rlcdn\.com|casalemedia\.com|yieldmo\.com|chartbeat\.net|parsely\.com|newrelic\.com|nr-data\.net|imrworldwide\.com|sitestat\.com|statcounter\.com)$/i;
const TRACKER_PATH = /(^|\/)(pixel|beacon|spacer|blank|clear|transparent|1x1|trans|tracking|track|collect|impression)(\.(gif|png)|[/?]|$)/i;

function isTinyDataGif(src: string): boolean {
  return /^data:image\/gif/i.test(src) && src.length < 200;
}

export function isTrackingImage(img: Pick<Image, 'src' | 'naturalWidth' | 'naturalHeight' | 'box'>): boolean {
  if (isTinyDataGif(img.src)) return true;
  const w = img.box?.width ?? 0;
  const h = img.box?.height ?? 0;
  if (img.box && (w <= 2 || h <= 2) && (img.naturalWidth <= 2 || img.naturalHeight <= 2)) return true;
  if (img.naturalWidth > 0 && img.naturalHeight > 0 && img.naturalWidth <= 2 && img.naturalHeight <= 2) return true;
  if (img.src.startsWith('data:')) return false;
  try {
    const u = new URL(img.src);
    return TRACKER_HOSTS.test(u.hostname) || TRACKER_PATH.test(u.pathname);
  } catch {
    return true;
  }
}
