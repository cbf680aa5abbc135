import { describe, expect, it } from 'vitest';
import { articleElements, detectArticle } from './article.ts';
import { gatherPageEvidence } from './page-evidence.ts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';

const prose = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} says more about ${topic}, and how the people who care about it spend their days.`).join(' ');
const evidence = (html: string) => gatherPageEvidence(snapshotFromHtml(html, 'https://pub.example/story'), 'https://pub.example/story');

describe('article detection', () => {
  it('finds the outermost <article> elements, nested ones inside their parent', () => {
    expect(articleElements('<article>a<article>b</article>c</article><p>x</p><article>d</article>')).toEqual(['a<article>b</article>c', 'd']);
  });

  it('reads a dated <article> with a headline and a long body as an article, its body without share bars', () => {
    const page = evidence(`<html><head><title>Pub</title><meta property="og:type" content="article"></head><body>
      <nav><a>Home</a><a>Software</a></nav><article><h1>Why sourdough needs time</h1><time datetime="2024-01-01">1 Jan</time>
      <p>${prose('sourdough bread', 14)}</p><aside>Share on social</aside></article><footer>About the publisher</footer></body></html>`);
    expect(page.article).toMatchObject({ signal: 'og:type', headline: 'Why sourdough needs time' });
    expect(page.article!.words).toBeGreaterThanOrEqual(150);
    expect(page.article!.body).not.toContain('Share on social');
  });

  it('does not read a business page that merely wraps its content in <article> as an article', () => {
    const page = evidence(
      `<html><head><title>Acme Rooms</title></head><body><article><h1>Our rooms</h1><p>${prose('our rooms', 14)}</p></article></body></html>`,
    );
    expect(page.article).toBeNull();
  });

  it('takes a declared schema.org article without an <article> element from the visible text minus header and footer', () => {
    const page =
      evidence(`<html><head><title>A story</title><script type="application/ld+json">{"@type":"BlogPosting","headline":"Tomatoes in pots"}</script></head>
      <body><header>Acme Software - the best CRM</header><div><p>${prose('growing tomatoes in pots', 14)}</p></div><footer>Acme Software Inc, all rights reserved</footer></body></html>`);
    expect(page.article).toMatchObject({ signal: 'schema.org', headline: 'Tomatoes in pots' });
    expect(page.article!.body).not.toContain('CRM');
  });

  it("leaves the headlines of other stories' links out of a body read from the visible text", () => {
    const rail =
      '<section class="rail"><h3>Most read</h3><ul><li><a href="/tech/new-hardware">New laptop hardware reviewed by our tech desk</a></li><li><a href="/travel/flights">Airline adds direct flights to Lisbon</a></li></ul></section>';
    const page =
      evidence(`<html><head><title>A story</title><script type="application/ld+json">{"@type":"NewsArticle","headline":"Tomatoes in pots"}</script></head>
      <body><header>The Daily Example</header><main><h1>Tomatoes in pots</h1><p>${prose('growing tomatoes in pots', 14)} Read <a href="/x">our guide</a> too.</p>${rail}</main>
      <footer>The Daily Example, all rights reserved</footer></body></html>`);
    expect(page.article!.body).toContain('growing tomatoes');
    expect(page.article!.body).not.toContain('laptop hardware');
    expect(page.article!.body).not.toContain('Airline adds');
    // a post under a dateline, the same
    const post = evidence(
      `<html><body><h1>Training for a first marathon</h1><p>18 September 2024 · 7 min read</p><p>${prose('marathon training', 14)}</p>${rail}</body></html>`,
    );
    expect(post.article).toMatchObject({ signal: 'dateline' });
    expect(post.article!.body).not.toContain('laptop hardware');
  });

  it('reads a post that shows only a dateline as text beside its headline (no <time>, schema.org or byline class)', () => {
    const page = evidence(`<html><head><title>Blog - Acme Heating</title></head><body>
      <header><nav><a>Furnace repair</a><a>AC installation</a></nav></header>
      <div class="post"><p class="meta">January 8, 2025 · by Denise Yoder</p><h1>Who is at your feeder this winter?</h1>
      <p>${prose('the birds at a winter feeder', 14)}</p></div>
      <footer>Acme Heating &amp; Cooling, furnace and boiler service since 1980</footer></body></html>`);
    expect(page.article).toMatchObject({ signal: 'dateline', headline: 'Who is at your feeder this winter?' });
    expect(page.article!.body).toContain('winter feeder');
    expect(page.article!.body).not.toContain('boiler service');
    // "7 min read" stands for the byline; "Posted by" and "Written by" are bylines too.
    expect(
      evidence(`<html><body><h1>Training for a first marathon</h1><p>18 September 2024 · 7 min read</p><p>${prose('marathon training', 14)}</p></body></html>`)
        .article,
    ).toMatchObject({ signal: 'dateline' });
  });

  it('reads a byline in capitals, or an author named beside the date with no "By", as a dateline', () => {
    const post = (dateline: string) =>
      evidence(`<html><body><h1>Council approves the transit levy</h1><p>${dateline}</p><p>${prose('the transit levy', 14)}</p></body></html>`).article;
    expect(post('BY MARCUS AUBIN · Published June 12, 2024')).toMatchObject({ signal: 'dateline' });
    expect(post('Kirsty Lawlor · 15 Nov 2024')).toMatchObject({ signal: 'dateline' });
    expect(post('Declan Moloney | Thursday, 24 October 2024')).toMatchObject({ signal: 'dateline' });
    // One capitalised word beside a date is a label ("Updated · 15 Nov 2024"), no author.
    expect(post('Updated · 15 Nov 2024')).toBeNull();
  });

  it("takes the post's own heading, not an og:title that is the site's name written in the header above it", () => {
    const page = evidence(`<html><head><title>Moving house with a dog | Homeward Mortgages</title>
      <meta property="og:title" content="Homeward Mortgages"></head><body>
      <header><a href="/">Homeward Mortgages</a><nav><a>Home loans</a><a>Refinancing</a></nav></header>
      <h1>Moving house with a dog</h1><p>Kirsty Lawlor · 15 Nov 2024</p><p>${prose('moving house with a dog', 14)}</p></body></html>`);
    expect(page.article).toMatchObject({ signal: 'dateline', headline: 'Moving house with a dog' });
    expect(page.article!.body).not.toContain('Refinancing');
  });

  it('reads no dateline from a date without a byline, or a byline far from the headline', () => {
    expect(
      evidence(`<html><body><h1>Family plumbing since 1987</h1><p>Open since March 3, 2001.</p><p>${prose('our plumbing services', 14)}</p></body></html>`)
        .article,
    ).toBeNull();
    expect(
      evidence(`<html><body><h1>Family plumbing since 1987</h1><p>${prose('our plumbing services', 14)}</p><p>News: March 3, 2025 by Sal</p></body></html>`)
        .article,
    ).toBeNull();
  });

  it('needs a long body: a short declared article is no article', () => {
    const snap = snapshotFromHtml(
      `<html><head><title>Short</title></head><body><article><h1>Short</h1><time>today</time><p>${prose('x', 3)}</p></article></body></html>`,
      'https://pub.example/',
    );
    expect(detectArticle(snap, { schemaTypes: ['NewsArticle'], ogType: null, fallbackHeadlines: [] })).toBeNull();
  });
});
