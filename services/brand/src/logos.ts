/** The `logos` group: scored candidates from every signal in the snapshot (see logos/score.ts). */
import type { Logos, Snapshot } from '@enrich/shared/contracts';
import { brandNames } from './page/brand-name.ts';
import { organizationFacts } from './page/jsonld.ts';
import { metaContent } from './page/meta.ts';
import { siteIcons } from './logos/icons.ts';
import { chooseLogos, scoreLogoCandidates, toLogo, type LogoCandidate } from './logos/score.ts';

export type LogoAnalysis = { logos: Logos; primary: LogoCandidate | null };

export function analyzeLogos(snapshot: Snapshot): LogoAnalysis {
  const icons = siteIcons(snapshot.links, snapshot.resources);
  const candidates = scoreLogoCandidates({
    finalUrl: snapshot.finalUrl,
    images: snapshot.images,
    svgs: snapshot.svgs,
    viewport: snapshot.viewport,
    brandNames: brandNames(snapshot),
    jsonLdLogos: organizationFacts(snapshot).logos,
    metaLogo: metaContent(snapshot, 'og:logo', 'logo'),
    icons,
  });
  const { primary, secondary } = chooseLogos(candidates);
  return {
    primary,
    logos: {
      primary: primary ? toLogo(primary) : null,
      secondary: secondary.map(toLogo),
      favicon_url: icons.favicon_url,
      icon_url: icons.icon_url,
      apple_touch_icon: icons.apple_touch_icon,
    },
  };
}
