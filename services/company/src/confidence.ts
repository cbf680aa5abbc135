/**
 * The reply's confidence: how much independent evidence agrees, in [0, 1]. The formula is stated in
 * services/company/README.md; keep the two in step.
 */

export interface Evidence {
  /** Pooled weight of the sources that named the chosen company (0 when there is no name). */
  nameEvidence: number;
  /** How closely the name matches the site's own identity (domain, og:site_name, title), in [0, 1]. */
  nameAffinity: number;
  emailCount: number;
  /** Distinct kinds of places the emails came from (mailto, text, jsonld, cloudflare, ...). */
  emailSourceKinds: number;
  sameSiteEmail: boolean;
  addressCount: number;
  /** An address came from structured data (JSON-LD / microdata) rather than free text. */
  structuredAddress: boolean;
  /** Distinct kinds of places the addresses came from. */
  addressSourceKinds: number;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

export function companyConfidence(e: Evidence): number {
  const name = e.nameEvidence > 0 ? clamp01(e.nameEvidence / 1.5) * (0.6 + 0.4 * e.nameAffinity) : 0;
  const email = e.emailCount > 0 ? clamp01(0.5 + 0.25 * (e.emailSourceKinds - 1) + (e.sameSiteEmail ? 0.25 : 0)) : 0;
  const address = e.addressCount > 0 ? clamp01((e.structuredAddress ? 0.8 : 0.6) + 0.2 * (e.addressSourceKinds - 1)) : 0;
  return Math.round((0.5 * name + 0.25 * email + 0.25 * address) * 100) / 100;
}
