/**
 * The brand's own social profiles. Evidence, most trusted first: JSON-LD `sameAs` of the
 * organisation; the page's own meta (twitter:site, article:publisher); links in header, nav and
 * footer (where sites put their profile icons); other links; links inside main/aside last, since
 * articles link to authors' and subjects' profiles. Share/intent/sharer links and platform pages
 * that are no profile (facebook.com/, twitter.com/home, linkedin.com/feed) are never taken.
 * Within one tier, a handle that matches the brand name wins, then the most linked one.
 */
import type { SocialLinks, Snapshot } from '@enrich/shared/contracts';
import { brandNames, compact, hasRelToken, isSiteChrome, metaContent, metaContentFromHtml, organizationFacts } from '@enrich/shared/page';

type Platform = keyof SocialLinks;

/** Paths that are platform pages, not profiles (first path segment, lower case). */
const RESERVED: Record<Platform, Set<string>> = {
  twitter: new Set([
    'home',
    'share',
    'intent',
    'search',
    'hashtag',
    'i',
    'login',
    'signup',
    'privacy',
    'tos',
    'explore',
    'notifications',
    'settings',
    'messages',
    'about',
    'en',
    'download',
    'widgets',
    'widgets.js',
    'compose',
    'status',
  ]),
  facebook: new Set([
    'sharer',
    'sharer.php',
    'share',
    'share.php',
    'dialog',
    'plugins',
    'tr',
    'login',
    'login.php',
    'home.php',
    'help',
    'policies',
    'privacy',
    'legal',
    'watch',
    'events',
    'groups',
    'hashtag',
    'photo.php',
    'story.php',
    'permalink.php',
    'business',
    'ads',
    'pages',
    'l.php',
  ]),
  linkedin: new Set(),
  github: new Set([
    'login',
    'join',
    'about',
    'features',
    'pricing',
    'site',
    'explore',
    'marketplace',
    'sponsors',
    'topics',
    'trending',
    'collections',
    'search',
    'settings',
    'notifications',
    'orgs',
    'apps',
    'security',
    'enterprise',
    'contact',
  ]),
  instagram: new Set(['p', 'reel', 'reels', 'explore', 'accounts', 'tv', 'stories', 'direct', 'about', 'legal', 'developer']),
  youtube: new Set([
    'watch',
    'embed',
    'results',
    'shorts',
    'playlist',
    'feed',
    'redirect',
    'share',
    'about',
    'premium',
    'account',
    'signin',
    'live',
    'hashtag',
    'v',
  ]),
};

function platformOf(host: string): Platform | null {
  const h = host.toLowerCase().replace(/^(www|m|mobile|[a-z]{2}|[a-z]{2}-[a-z]{2})\./, '');
  if (h === 'twitter.com' || h === 'x.com') return 'twitter';
  if (h === 'facebook.com' || h === 'fb.com') return 'facebook';
  if (h === 'linkedin.com') return 'linkedin';
  if (h === 'github.com') return 'github';
  if (h === 'instagram.com' || h === 'instagr.am') return 'instagram';
  if (h === 'youtube.com') return 'youtube';
  return null;
}

export type Profile = { platform: Platform; url: string; handle: string };

/** A normalised https profile URL, or null for share links, platform pages and anything else. */
export function toProfile(href: string): Profile | null {
  let u: URL;
  try {
    u = new URL(href.trim().replace(/^\/\//, 'https://'));
  } catch {
    return null;
  }
  if (!/^https?:$/.test(u.protocol)) return null;
  const platform = platformOf(u.hostname);
  if (!platform) return null;
  const segments = u.pathname.split('/').filter(Boolean);
  const first = (segments[0] ?? '').toLowerCase();
  if (first === '') {
    // facebook.com/profile.php?id=... has its identity in the query; every other bare host is generic.
    return null;
  }
  if (RESERVED[platform].has(first)) return null;
  const host =
    platform === 'twitter' ? (/x\.com$/i.test(u.hostname) ? 'x.com' : 'twitter.com') : `${platform === 'github' ? '' : 'www.'}${platformHost(platform)}`;
  let path: string;
  let handle: string;
  switch (platform) {
    case 'linkedin':
      if (!['company', 'in', 'school', 'showcase'].includes(first) || !segments[1]) return null;
      path = `/${first}/${segments[1]}`;
      handle = segments[1];
      break;
    case 'youtube':
      if (['channel', 'c', 'user'].includes(first)) {
        if (!segments[1]) return null;
        path = `/${first}/${segments[1]}`;
        handle = segments[1];
      } else if (first.startsWith('@')) {
        path = `/${segments[0]}`;
        handle = segments[0]!.slice(1);
      } else return null;
      break;
    case 'facebook':
      if (first === 'profile.php') {
        const id = u.searchParams.get('id');
        if (!id) return null;
        path = `/profile.php?id=${id}`;
        handle = id;
      } else {
        path = `/${segments[0]}`;
        handle = segments[0]!;
      }
      break;
    default:
      if (platform === 'twitter' && first.startsWith('#')) return null;
      path = `/${segments[0]!.replace(/^@/, '')}`;
      handle = segments[0]!.replace(/^@/, '');
  }
  handle = safeDecode(handle).trim();
  path = path.replace(/%20$/i, '');
  if (!/^[\w.@-]{1,100}$/.test(handle)) return null;
  return { platform, url: `https://${host}${path}`, handle };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function platformHost(p: Platform): string {
  return {
    twitter: 'twitter.com',
    facebook: 'facebook.com',
    linkedin: 'linkedin.com',
    github: 'github.com',
    instagram: 'instagram.com',
    youtube: 'youtube.com',
  }[p];
}

type Evidence = { profile: Profile; tier: number; order: number };

export function analyzeSocialLinks(snapshot: Pick<Snapshot, 'jsonLd' | 'meta' | 'anchors' | 'title' | 'finalUrl' | 'html'>): SocialLinks {
  const names = brandNames(snapshot);
  const evidence: Evidence[] = [];
  let order = 0;
  const add = (href: string | null, tier: number): void => {
    const profile = href ? toProfile(href) : null;
    if (profile) evidence.push({ profile, tier, order: order++ });
  };
  for (const url of organizationFacts(snapshot).sameAs) add(url, 0);
  const twitterSite = metaContent(snapshot, 'twitter:site') ?? metaContentFromHtml(snapshot.html, 'twitter:site');
  if (twitterSite && /^@?\w{1,30}$/.test(twitterSite)) add(`https://twitter.com/${twitterSite.replace(/^@/, '')}`, 1);
  add(metaContent(snapshot, 'article:publisher'), 1);
  // On an article, links outside header/nav/footer are the author's and the subjects', not the site's.
  const isArticle = /article/i.test(metaContent(snapshot, 'og:type') ?? '');
  for (const a of snapshot.anchors) {
    const tier = isSiteChrome(a.region) ? 2 : a.region === 'other' && !isArticle ? 3 : 4;
    add(a.href, hasRelToken(a.rel, 'me') && tier > 2 ? 2 : tier);
  }

  const result: SocialLinks = { twitter: null, linkedin: null, github: null, facebook: null, instagram: null, youtube: null };
  for (const platform of Object.keys(result) as Platform[]) {
    const found = evidence.filter((e) => e.profile.platform === platform);
    if (found.length === 0) continue;
    const counts = new Map<string, number>();
    for (const e of found) counts.set(e.profile.url.toLowerCase(), (counts.get(e.profile.url.toLowerCase()) ?? 0) + 1);
    const matchesBrand = (e: Evidence): boolean => {
      const h = compact(e.profile.handle);
      return h.length >= 3 && names.some((n) => n.includes(h) || h.includes(n));
    };
    // Links deep in the content are someone else's unless they name the brand.
    const usable = found.filter((e) => e.tier < 4 || matchesBrand(e));
    const best = usable.sort(
      (x, y) =>
        x.tier - y.tier ||
        Number(matchesBrand(y)) - Number(matchesBrand(x)) ||
        counts.get(y.profile.url.toLowerCase())! - counts.get(x.profile.url.toLowerCase())! ||
        x.order - y.order,
    )[0];
    result[platform] = best?.profile.url ?? null;
  }
  return result;
}
