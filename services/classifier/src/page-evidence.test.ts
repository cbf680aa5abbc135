import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { gatherPageEvidence } from './page-evidence.ts';

const evidence = (html: string) => gatherPageEvidence(snapshotFromHtml(html, 'https://www.acme.example/'), 'https://www.acme.example/');

describe('navigation labels as evidence', () => {
  it("drops the corporate sections any company's menu has, and keeps the labels that name a topic", () => {
    const nav = [
      'Brands',
      'Sustainability',
      'Investor Relations',
      'Careers',
      'Careers at Acme',
      'Newsroom',
      'Press Releases',
      'Career Advice',
      'Job Search',
      'Soft Drinks',
    ];
    const page =
      evidence(`<html><head><title>The Acme Company</title></head><body><header><nav>${nav.map((n) => `<a href="/x">${n}</a>`).join('')}</nav></header>
      <main><p>Careers in beverage science start here.</p></main></body></html>`);
    expect(page.nav).toEqual(['Brands', 'Career Advice', 'Job Search', 'Soft Drinks']);
    // Only the menu: the same words in the page's own text still count.
    expect(page.visible).toContain('Careers in beverage science');
  });
});
