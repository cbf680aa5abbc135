/** Logo candidates, their scores and the one ranking the renderer and the brand analyzer share. */
export { firstRasterRefBeforeIcons, isLogoCandidate, rankLogoCandidates, rasterPlan, type LogoPage, type LogoRanking } from './candidates.ts';
export { declaresIcon, manifestHref, parseManifestIcons, siteIcons, type SiteIcons } from './icons.ts';
export {
  chooseLogos,
  ICON_RAW,
  ICON_SOURCES,
  logoScore,
  MIN_ELEMENT_RAW,
  scoreElement,
  scoreLogoCandidates,
  svgDataUri,
  toLogo,
  type LogoCandidate,
  type LogoChoice,
  type LogoFacts,
} from './score.ts';
export { isTrackingImage } from './tracking.ts';
