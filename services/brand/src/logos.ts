/**
 * The `logos` group. Candidates and their ranking come from `@enrich/shared/logos`, the same
 * function the renderer used to choose which logos to rasterise: the primary is the top candidate,
 * and brand colours come only from the raster of that candidate (colors/brand.ts).
 */
import type { Logos, Snapshot } from '@enrich/shared/contracts';
import { chooseLogos, rankLogoCandidates, toLogo, type LogoCandidate } from '@enrich/shared/logos';

export type LogoAnalysis = { logos: Logos; primary: LogoCandidate | null };

export function analyzeLogos(snapshot: Snapshot): LogoAnalysis {
  const { candidates, icons } = rankLogoCandidates(snapshot);
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
