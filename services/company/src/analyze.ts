/** `analyze.company`: the legal name, emails and postal addresses of the site's owner. */
import type { CompanyReply, CompanyRequest } from '@enrich/shared/contracts';
import { domainLabel, registrableDomain } from '@enrich/shared/page';
import { mergeAddresses } from './addresses/index.ts';
import { companyConfidence } from './confidence.ts';
import { rankEmails } from './emails.ts';
import { chooseFollowUpLinks } from './follow-up.ts';
import { hasStrongLegalForm } from './legal-forms.ts';
import { chooseOwnerNames, siteRegion } from './owner-name.ts';
import { readPageEvidence } from './page-evidence.ts';

export function analyzeCompany(req: CompanyRequest): CompanyReply {
  const main = req.snapshot;
  const siteDomain = registrableDomain(main.finalUrl || main.requestedUrl);
  const pages = [main, ...req.extraSnapshots].map((s) => readPageEvidence(s, domainLabel(siteDomain)));

  const hints = pages.flatMap((p) => p.ownerHints);
  const texts = [main, ...req.extraSnapshots].flatMap((s, i) => [s.title, pages[i]!.text]);
  const { emails, sources: emailSources } = rankEmails(
    pages.flatMap((p) => p.emails),
    siteDomain,
  );

  const foundAddresses = pages.flatMap((p) => p.addresses);
  const addresses = mergeAddresses(foundAddresses.map((a) => a.line));
  const choice = chooseOwnerNames(
    pages.flatMap((p) => p.names),
    domainLabel(siteDomain),
    hints,
    texts,
    addresses,
    pages.flatMap((p) => p.authors),
    siteRegion(siteDomain),
  );
  const addressSources = [...new Set(foundAddresses.map((a) => a.source))];

  const sources = [...new Set<string>([...(choice?.sources ?? []), ...emailSources, ...addressSources])];
  const confidence = companyConfidence({
    nameEvidence: choice?.evidence ?? 0,
    nameAffinity: choice?.affinity ?? 0,
    emailCount: emails.length,
    emailSourceKinds: emailSources.length,
    sameSiteEmail: emails.some((e) => e.endsWith(`@${siteDomain}`) || e.endsWith(`.${siteDomain}`)),
    addressCount: addresses.length,
    structuredAddress: addressSources.some((s) => s === 'jsonld' || s === 'microdata'),
    addressSourceKinds: addressSources.length,
  });

  const name = choice?.name ?? '';
  const followUp =
    req.extraSnapshots.length > 0
      ? []
      : chooseFollowUpLinks(main.anchors, main.finalUrl || main.requestedUrl, siteDomain, {
          legalName: !hasStrongLegalForm(name),
          contact: emails.length === 0 || addresses.length === 0,
        });

  return {
    data: { name, brand_name: choice?.brandName ?? '', emails, addresses, sources, confidence, pages: pages.map((p) => p.url) },
    followUp,
  };
}
