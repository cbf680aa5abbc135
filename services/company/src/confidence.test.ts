import { describe, expect, it } from 'vitest';
import { companyConfidence, type Evidence } from './confidence.ts';

const none: Evidence = {
  nameEvidence: 0,
  nameAffinity: 0,
  emailCount: 0,
  emailSourceKinds: 0,
  sameSiteEmail: false,
  addressCount: 0,
  structuredAddress: false,
  addressSourceKinds: 0,
};

describe('confidence', () => {
  it('is 0 without evidence and 1 when everything agrees', () => {
    expect(companyConfidence(none)).toBe(0);
    expect(
      companyConfidence({
        nameEvidence: 2,
        nameAffinity: 1,
        emailCount: 2,
        emailSourceKinds: 2,
        sameSiteEmail: true,
        addressCount: 1,
        structuredAddress: true,
        addressSourceKinds: 2,
      }),
    ).toBe(1);
  });

  it('grows with independent agreeing sources', () => {
    const one = companyConfidence({ ...none, nameEvidence: 0.3, nameAffinity: 0.5 });
    const two = companyConfidence({ ...none, nameEvidence: 1.0, nameAffinity: 0.5 });
    const owner = companyConfidence({ ...none, nameEvidence: 1.0, nameAffinity: 1 });
    expect(one).toBeLessThan(two);
    expect(two).toBeLessThan(owner);
    expect(owner).toBeLessThanOrEqual(0.5);
  });
});
