/** Integration: real Chromium against the fixture sites on 127.0.0.2; one renderer for the file. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotSchema, RenderResultSchema } from '@enrich/shared/contracts';
import { rankLogoCandidates } from '@enrich/shared/logos';
import { DeadlineExceededError, TargetUnreachableError, UrlForbiddenError } from '@enrich/shared/errors';
import { startFixtureSites, type FixtureSites } from '../../../test/support/fixture-sites.ts';
import { fixtureResolver, renderRequest, startTestRenderer } from '../../../test/support/renderer-harness.ts';

let sites: FixtureSites;
// `shop.fixture` and `rebind.fixture` exist only in this resolver, never in the system DNS Chromium would use.
const r = startTestRenderer({}, fixtureResolver({ 'shop.fixture': ['127.0.0.2'], 'rebind.fixture': ['127.0.0.2', '127.0.0.1'] }));

beforeAll(async () => {
  sites = await startFixtureSites();
  await r.renderer.pool.warm();
});
afterAll(async () => {
  await r.renderer.close();
  await sites?.close();
});

const localFile = (url: string): string => join(r.config.SCREENSHOT_DIR, url.slice(r.config.ASSETS_BASE_URL.length + 1));

describe('render.page on a plain site', () => {
  it('returns a complete snapshot, the screenshot and visuals from one load', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/`, { screenshot: { format: 'png', fullPage: false }, visuals: true }));
    expect(RenderResultSchema.parse(result)).toBeTruthy();
    const snap = SnapshotSchema.parse(result.snapshot);
    expect(result.status).toBe(200);
    expect(snap.title).toBe('Acme Roasters | Coffee from Bristol');
    expect(snap.lang).toBe('en-GB');
    expect(snap.html).toContain('Fresh coffee, roasted weekly');
    expect(snap.meta.find((m) => m.name === 'description')?.content).toContain('Bristol');
    expect(snap.links.find((l) => l.rel === 'icon')?.href).toBe(`${sites.origin}/assets/logo.png`);
    expect(JSON.parse(snap.jsonLd[0]!).name).toBe('Acme Roasters Ltd');
    expect(snap.stylesheets.map((s) => s.url)).toEqual([`${sites.origin}/assets/site.css`, null, `${sites.origin}/assets/extra.css`]);
    expect(snap.stylesheets[2]!.text).toContain('.promo');
    expect(snap.stylesheets[0]!.text).toContain('Georgia');
    expect(snap.scripts).toEqual([]);
    const shop = snap.anchors.find((a) => a.text === 'Shop');
    expect(shop).toMatchObject({ href: `${sites.origin}/shop`, region: 'nav', visible: true });
    expect(shop!.box!.width).toBeGreaterThan(0);
    const logo = snap.images.find((i) => i.id === 'logo');
    expect(logo).toMatchObject({ kind: 'img', region: 'header', linkHref: `${sites.origin}/`, naturalWidth: 120, naturalHeight: 40, alt: 'Acme Roasters' });
    expect(logo!.ancestorHints).toContain('brand-link');
    expect(snap.images.find((i) => i.kind === 'background')?.src).toBe(`${sites.origin}/assets/hero.png`);
    expect(snap.svgs[0]).toMatchObject({ title: 'Cup', region: 'main', truncated: false });
    expect(snap.svgs[0]!.markup).toContain('<circle');
    expect(snap.styles.rootVariables['--brand']).toBe('#c0392b');
    expect(snap.styles.rootVariables['--accent']).toBe('#f39c12');
    expect(snap.styles.colors).toContainEqual(expect.objectContaining({ value: 'rgb(192, 57, 43)', property: 'background-color', role: 'link' }));
    expect(snap.styles.colors).toContainEqual(expect.objectContaining({ value: 'rgb(20, 40, 60)', property: 'background-color', role: 'header' }));
    // The consent banner is hidden before sampling, so its green never counts as a brand color.
    expect(snap.styles.colors.some((c) => c.value === 'rgb(0, 128, 0)')).toBe(false);
    expect(snap.styles.fonts[0]!.family).toContain('Georgia');
    expect(snap.text.nav).toEqual(['Shop', 'About us', 'Contact']);
    expect(snap.text.footer).toContain('BS1 5TT');
    expect(snap.text.headings).toContainEqual({ level: 1, text: 'Fresh coffee, roasted weekly' });
    expect(snap.resources).toContainEqual({ url: `${sites.origin}/assets/site.css`, type: 'stylesheet', status: 200 });
    expect(snap.viewport).toEqual({ width: 1280, height: 800 });
    expect(snap.thumbnail!.width).toBe(256);
    expect(snap.thumbnail!.height).toBe(160);
    // Only the primary logo's raster: the brand analyzer reads no other.
    expect(snap.logoRasters.map((l) => l.ref)).toEqual(['img:0']);
    expect(snap.logoRasters[0]).toMatchObject({ width: 120, height: 40 });
    expect(snap.truncated).toEqual([]);

    const shot = result.screenshot!;
    expect(shot).toMatchObject({ format: 'png', width: 1280, height: 800, fullPage: false });
    expect(shot.capturedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(shot.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:8080/assets/screenshots/\\d{4}-\\d\\d-\\d\\d/${result.snapshot ? '' : ''}`));
    const file = readFileSync(localFile(shot.url));
    expect(file.length).toBe(shot.bytes);
    // The cookie banner (green, fixed at the bottom) is hidden in the capture.
    const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number): number[] => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(px(640, 750)).not.toEqual([0, 128, 0]);
  });

  it("reads a section the page fills when its observer sees it, far below the fold (the snapshot's scroll)", async () => {
    const result = await r.render(renderRequest(`${sites.origin}/observed`, { viewport: { width: 800, height: 600 } }));
    expect(SnapshotSchema.parse(result.snapshot).text.visible).toContain('Section seen by the reader');
  });

  it('collects only the parts the request wants: the document alone for the classifier, no styles for the company analyzer', async () => {
    const url = `${sites.origin}/`;
    const full = SnapshotSchema.parse((await r.render(renderRequest(url))).snapshot);
    const textOnly = SnapshotSchema.parse((await r.render(renderRequest(url, { elements: false, styles: false }))).snapshot);
    const noStyles = SnapshotSchema.parse((await r.render(renderRequest(url, { styles: false }))).snapshot);
    // The document is the same however much else is collected.
    for (const snap of [textOnly, noStyles]) {
      expect(snap.title).toBe(full.title);
      expect(snap.text).toEqual(full.text);
      expect(snap.jsonLd).toEqual(full.jsonLd);
      expect(snap.meta).toEqual(full.meta);
      expect(snap.links).toEqual(full.links);
      expect(snap.styles).toEqual({ colors: [], fonts: [], rootVariables: {} });
      expect(snap.stylesheets).toEqual([]);
    }
    expect(full.styles.colors.length).toBeGreaterThan(0);
    expect(full.stylesheets.length).toBe(3);
    expect([textOnly.anchors, textOnly.images, textOnly.svgs]).toEqual([[], [], []]);
    expect(noStyles.anchors).toEqual(full.anchors);
    expect(noStyles.images.map((i) => i.src)).toEqual(full.images.map((i) => i.src));
    expect(noStyles.svgs).toEqual(full.svgs);
  });

  it("keeps a frame's text but not its links when the request wants no elements", async () => {
    const snap = SnapshotSchema.parse((await r.render(renderRequest(`${sites.origin}/frames`, { elements: false, styles: false }))).snapshot);
    expect(snap.text.visible).toContain('sales@framed.example');
    expect(snap.anchors).toEqual([]);
  });

  it('makes no thumbnail when the request says so, and still the logo raster', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/`, { screenshot: { format: 'png', fullPage: false }, visuals: true, thumbnail: false }));
    const snap = SnapshotSchema.parse(result.snapshot);
    expect(snap.thumbnail).toBeNull();
    expect(snap.logoRasters.map((l) => l.ref)).toEqual(['img:0']);
  });
});

describe('loading real-world pages', () => {
  it('renders content that only JavaScript creates', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/spa/`));
    const snap = SnapshotSchema.parse(result.snapshot);
    expect(snap.title).toBe('Shop: Acme');
    expect(snap.text.headings).toContainEqual({ level: 1, text: 'Rendered by JavaScript' });
    expect(snap.anchors.map((a) => a.text)).toEqual(['House blend', 'Decaf']);
    expect(snap.html).toContain('<h1>Rendered by JavaScript</h1>');
  });

  it('reads each table cell as a line of its own', async () => {
    // innerText parts cells with a tab; read as a space, the name in one cell and the street in the
    // next became one line, and "Ready Credit Used Cars 32 Corporation" a company name.
    const snap = SnapshotSchema.parse((await r.render(renderRequest(`${sites.origin}/cells`))).snapshot);
    expect(snap.text.visible.split('\n')).toEqual([
      'Ready Credit Used Cars',
      '32 Corporation Street',
      'Hyannis, MA 02601',
      '(508) 771-1000',
      'Home',
      'Contact',
    ]);
    expect(snap.text.footer).toBe('Home\nContact');
  });

  it('includes script texts, inline and external, only when asked', async () => {
    const withScripts = SnapshotSchema.parse((await r.render(renderRequest(`${sites.origin}/spa/`, { scripts: true }))).snapshot);
    expect(withScripts.scripts.map((s) => s.url)).toEqual([`${sites.origin}/assets/theme.js`, null]);
    expect(withScripts.scripts[0]!.text).toContain("primary: '#c0392b'");
    expect(withScripts.scripts[1]!.text).toContain("fetch('/api/products')");
  });

  it('loads lazy images below the fold before a full-page capture', async () => {
    const result = await r.render(
      renderRequest(`${sites.origin}/lazy/`, { screenshot: { format: 'png', fullPage: true }, viewport: { width: 800, height: 600 } }),
    );
    const snap = SnapshotSchema.parse(result.snapshot);
    expect(snap.images.map((i) => [i.id, i.naturalWidth])).toEqual([
      ['native', 400],
      ['observed', 400],
    ]);
    const shot = result.screenshot!;
    expect([shot.width, shot.height]).toEqual([800, snap.documentSize.height]);
    const { data, info } = await sharp(readFileSync(localFile(shot.url)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number): number[] => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(px(200, 1500 + 150)).toEqual([255, 0, 0]); // native loading=lazy
    expect(px(200, 1500 + 300 + 1500 + 150)).toEqual([0, 0, 255]); // IntersectionObserver data-src
  });

  it('collects a link home drawn by its CSS background (its text indented away) as a logo, outside any header', async () => {
    const snap = SnapshotSchema.parse((await r.render(renderRequest(`${sites.origin}/css-logo`))).snapshot);
    const bg = snap.images.find((i) => i.kind === 'background');
    expect(bg).toMatchObject({ src: `${sites.origin}/img/red-logo.svg`, linkHref: `${sites.origin}/`, region: 'other' });
    expect(rankLogoCandidates(snap).candidates[0]?.url).toBe(`${sites.origin}/img/red-logo.svg`);
  });

  it("never requests video or audio (by file name or by what asks for it, in the page, its own or another site's frame, or added by a script), and leaves no trace of how", async () => {
    const result = await r.render(renderRequest(`${sites.origin}/media`));
    expect(result.snapshot!.text.headings).toContainEqual({ level: 1, text: 'Video' });
    expect(result.snapshot!.anchors.map((a) => a.href)).toContain(`${sites.origin}/assets/brochure.zip`);
    expect(result.snapshot!.text.visible).toContain('Trailer'); // the frame was read
    expect(sites.hits('/media/foreign-frame')).toBeGreaterThan(0); // and another site's frame loaded
    const media = ['/assets/clip.mp4', '/assets/song.mp3', '/stream/clip', '/assets/late.mp4', '/assets/trailer.webm', '/assets/player.webm'];
    expect(media.map((m) => [m, sites.hits(m)])).toEqual(media.map((m) => [m, 0]));
    // The policy's meta element is taken out as soon as it is read: the page's own markup only.
    expect(result.snapshot!.html).not.toMatch(/content-security-policy/i);
  });

  it("reads a frameset's own frames (text and links) but not another site's frame nor a hidden one", async () => {
    const result = await r.render(renderRequest(`${sites.origin}/frames`));
    const snap = SnapshotSchema.parse(result.snapshot);
    expect(snap.title).toBe('Framed Widgets');
    expect(snap.text.visible).toContain('Welcome to Framed Widgets');
    expect(snap.text.visible).toContain('sales@framed.example');
    expect(snap.anchors.map((a) => a.href)).toEqual(expect.arrayContaining(['mailto:hello@framed.example', `${sites.origin}/frames/contact`]));
    expect(snap.anchors.every((a) => a.href !== 'mailto:widget@foreign.example')).toBe(true);
    expect(snap.text.visible).not.toContain('Reviews by a widget');
    expect(snap.text.visible).not.toContain('hidden@framed.example');
    expect(sites.hits('/frames/foreign')).toBeGreaterThan(0); // the foreign frame did load: it is left out, not missing
  });

  it('lets the page open a websocket to an allowed host', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/ws`));
    expect(result.snapshot!.title).toBe('socket open');
  });

  it('does not wait for a subresource that never finishes', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/stuck-image`), 15_000);
    expect(result.snapshot!.text.headings).toContainEqual({ level: 1, text: 'Readable' });
    expect(result.timings.totalMs).toBeLessThan(15_000);
  });

  it('reads what web components show from their open shadow roots: text, headings, links, images and markup', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/web-components`));
    const snap = SnapshotSchema.parse(result.snapshot);
    const lines = snap.text.visible.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['Light heading', 'Open weekdays', 'About us', 'Write to us', 'sales@components.example', 'Nested shadow text']),
    );
    expect(lines.filter((l) => l === 'Open weekdays')).toHaveLength(1); // slotted light DOM once, not again from the slot
    expect(snap.text.headings).toEqual([
      { level: 1, text: 'Light heading' },
      { level: 2, text: 'Write to us' },
    ]);
    expect(snap.anchors.map((a) => [a.href, a.region])).toEqual(
      expect.arrayContaining([
        [`${sites.origin}/`, 'header'],
        [`${sites.origin}/about`, 'nav'],
        ['mailto:hello@components.example', 'other'],
      ]),
    );
    expect(snap.images.map((i) => [i.alt, i.linkHref, i.region, i.naturalWidth])).toEqual([['Acme Components', `${sites.origin}/`, 'header', 120]]);
    expect(snap.html).toContain('<contact-card><template shadowrootmode="open">');
    expect(snap.html).toContain('<inner-bit><template shadowrootmode="open"><p>Nested shadow text</p></template></inner-bit>');
    expect(snap.text.visible).not.toContain('color: rgb');
  });

  it("reads an image map's areas as links, named by their alt text", async () => {
    const snap = SnapshotSchema.parse((await r.render(renderRequest(`${sites.origin}/image-map`))).snapshot);
    expect(snap.anchors.map((a) => [a.href, a.text, a.region])).toEqual([
      ['mailto:orders@maps.example', 'Email', 'header'],
      ['https://twitter.com/acmemaps', 'Twitter', 'header'],
    ]);
  });

  // Whenever the move lands (while settling, scrolling or reading the page), the answer is the page it moved to, named by its own URL.
  it('follows a page that moves itself after it loaded, and reads the page it moved to', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/moves-after-load`, { screenshot: { format: 'png', fullPage: true }, visuals: true }));
    expect(result.finalUrl).toBe(`${sites.origin}/moved-here`);
    expect(result.snapshot!.finalUrl).toBe(`${sites.origin}/moved-here`);
    expect(result.snapshot!.title).toBe('Moved');
    expect(result.snapshot!.text.headings).toEqual([{ level: 1, text: 'After the move' }]);
  });

  it('keeps the final URL of a page that only sets a fragment on itself', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/hash-on-load`));
    expect(result.finalUrl).toBe(`${sites.origin}/hash-on-load`);
  });

  it('names the page a meta refresh moved to as the final URL', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/refresh-moves`));
    expect(result.snapshot!.title).toBe('Moved');
    expect(result.finalUrl).toBe(`${sites.origin}/moved-here`);
  });

  it('stops a script that never gives the main thread back, then reads and captures the page', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/runaway-script`, { screenshot: { format: 'png', fullPage: false } }), 25_000);
    expect(result.snapshot!.text.headings).toContainEqual({ level: 1, text: 'Readable' });
    expect(result.screenshot!.width).toBe(1280);
  }, 40_000);

  it('lets a script that is only slow (2 s of work after load) finish', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/busy-script`), 25_000);
    expect(result.snapshot!.title).toBe('Finished');
  }, 40_000);

  it('takes the page as far as its parser got when a parser-blocking script never answers', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/stuck-script`), 25_000);
    expect(result.snapshot!.text.headings).toContainEqual({ level: 1, text: 'Readable' });
    expect(result.snapshot!.text.visible).not.toContain('Never parsed');
  }, 40_000);

  // No clock here (a loaded machine makes any bound flaky): the job must end with the deadline's own
  // error, naming the budget and the stage it cut; the test's timeout is the hard bound.
  it('answers DEADLINE_EXCEEDED, naming the budget and the stage, for a page that never loads', async () => {
    const err = await r.render(renderRequest(`${sites.origin}/hang`), 3_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect((err as DeadlineExceededError).code).toBe('DEADLINE_EXCEEDED');
    expect((err as Error).message).toMatch(/was not done within the \d+ ms budget \(while navigating\)/);
  }, 30_000);

  it('answers TARGET_UNREACHABLE with the net error for a host that does not resolve', async () => {
    const err = await r.render(renderRequest('http://no-such-shop.invalid/')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect((err as Error).message).toContain('net::ERR_NAME_NOT_RESOLVED at http://no-such-shop.invalid/');
  });

  it('answers TARGET_UNREACHABLE for a page whose script sends it to a closed port, instead of reading an error page', async () => {
    const to = `http://127.0.0.2:${sites.closedPort}/`;
    const err = await r.render(renderRequest(`${sites.origin}/script-moves-to?to=${encodeURIComponent(to)}`)).catch((e: unknown) => e);
    expect(err, (err as Error).message).toBeInstanceOf(TargetUnreachableError);
    expect((err as Error).message).toContain(to);
  });

  it('answers TARGET_UNREACHABLE with the net error for a closed port', async () => {
    const url = `http://127.0.0.2:${sites.closedPort}/`;
    const err = await r.render(renderRequest(url)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect((err as Error).message).toContain('net::ERR_CONNECTION_REFUSED');
    expect((err as Error).message).toContain(url);
  });
});

describe('screenshot formats', () => {
  it.each([
    ['jpeg', false, 1024, 768],
    ['png', false, 1366, 900],
    ['webp', false, 390, 844],
    ['jpeg', true, 800, 600],
    ['webp', true, 800, 600],
  ] as const)('%s (full page %s) at %ix%i has the exact size and format', async (format, fullPage, width, height) => {
    const result = await r.render(renderRequest(`${sites.origin}/lazy/`, { snapshot: false, screenshot: { format, fullPage }, viewport: { width, height } }));
    const meta = await sharp(readFileSync(localFile(result.screenshot!.url))).metadata();
    expect(meta.format).toBe(format);
    const expectedHeight = fullPage ? 1500 * 3 + 600 : height;
    expect([meta.width, meta.height]).toEqual([width, expectedHeight]);
    expect(result.screenshot).toMatchObject({ format, width, height: expectedHeight, fullPage });
    expect(result.screenshot!.url).toMatch(new RegExp(`/screenshots/\\d{4}-\\d\\d-\\d\\d/[0-9a-f-]{36}\\.${format}$`));
    expect(result.snapshot).toBeNull();
  });
});

describe('very tall pages', () => {
  it('cuts a full-page capture at the largest height every format can hold', async () => {
    const result = await r.render(
      renderRequest(`${sites.origin}/tall`, { snapshot: false, screenshot: { format: 'webp', fullPage: true }, viewport: { width: 800, height: 600 } }),
      30_000,
    );
    const meta = await sharp(readFileSync(localFile(result.screenshot!.url))).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 800, 16_383]);
    expect(result.screenshot).toMatchObject({ width: 800, height: 16_383, clipped: true });
  });
});

describe('capture pixel budget (SCREENSHOT_MAX_PIXELS)', () => {
  const budget = 1920 * 5_000;
  const small = startTestRenderer({ SCREENSHOT_MAX_PIXELS: String(budget) });
  const fileOf = (url: string): string => join(small.config.SCREENSHOT_DIR, url.slice(small.config.ASSETS_BASE_URL.length + 1));
  afterAll(async () => {
    await small.renderer.close();
  });

  it.each([
    ['/tall', 'a 1920 x 30 000 page'],
    ['/tall-liar', 'a page whose scripts claim to be 600 px tall'],
  ])('cuts the full-page capture of %s (%s) to the budget, full width, and says so', async (path) => {
    const result = await small.render(
      renderRequest(`${sites.origin}${path}`, { snapshot: false, screenshot: { format: 'png', fullPage: true }, viewport: { width: 1920, height: 1080 } }),
      30_000,
    );
    expect(result.screenshot).toMatchObject({ width: 1920, height: 5_000, fullPage: true, clipped: true });
    const meta = await sharp(readFileSync(fileOf(result.screenshot!.url))).metadata();
    expect([meta.width, meta.height]).toEqual([1920, 5_000]);
    expect(meta.width! * meta.height!).toBeLessThanOrEqual(budget);
  });

  it('keeps a page that fits whole, and says it was not cut', async () => {
    const result = await small.render(
      renderRequest(`${sites.origin}/lazy/`, { snapshot: false, screenshot: { format: 'png', fullPage: true }, viewport: { width: 800, height: 600 } }),
    );
    expect(result.screenshot).toMatchObject({ width: 800, height: 1500 * 3 + 600, clipped: false });
  });
});

describe('SSRF guard through the browser', () => {
  it.each([
    'http://127.0.0.1:PORT/',
    'http://2130706433:PORT/',
    'http://0x7f000001:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://localhost:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://127.1:PORT/',
  ])('refuses %s before loading it', async (spelling) => {
    const before = sites.forbiddenHits();
    const err = await r.render(renderRequest(spelling.replace('PORT', String(sites.forbiddenPort)))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect((err as Error).message).toMatch(/loopback/);
    expect(sites.forbiddenHits()).toBe(before);
  });

  it('refuses a redirect from the allowed site to a forbidden host', async () => {
    const before = sites.forbiddenHits();
    const err = await r.render(renderRequest(`${sites.origin}/redirect?to=${encodeURIComponent(`${sites.forbiddenOrigin}/admin`)}`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect((err as Error).message).toBe('URL refused: it redirected to a URL that is refused: the host is a loopback address');
    expect(sites.forbiddenHits()).toBe(before);
  });

  it('refuses a page whose script sends it to a forbidden host, instead of reading the browser error page', async () => {
    const before = sites.forbiddenHits();
    const err = await r.render(renderRequest(`${sites.origin}/script-moves-to-forbidden`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect((err as Error).message).toBe('URL refused: it redirected to a URL that is refused: the host is a loopback address');
    expect(sites.forbiddenHits()).toBe(before);
  });

  it('loads the page but none of its subresources, redirects, fetches, websockets or workers to a forbidden host', async () => {
    const before = sites.forbiddenHits();
    const result = await r.render(renderRequest(`${sites.origin}/leaky`));
    expect(result.snapshot!.text.headings).toContainEqual({ level: 1, text: 'Leaky page' });
    expect(sites.forbiddenHits()).toBe(before);
    const statuses = result.snapshot!.resources.filter((x) => x.url.startsWith(sites.forbiddenOrigin));
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((x) => x.status === null || x.status === 403)).toBe(true);
  });

  it('connects to the address it checked, not one the browser looks up itself', async () => {
    const port = new URL(sites.origin).port;
    const result = await r.render(renderRequest(`http://shop.fixture:${port}/`, { snapshot: true }));
    expect(result.finalUrl).toBe(`http://shop.fixture:${port}/`);
    expect(result.snapshot!.title).toBe('Acme Roasters | Coffee from Bristol');
  });

  it('refuses a host when one of its addresses is forbidden', async () => {
    const port = new URL(sites.origin).port;
    const err = await r.render(renderRequest(`http://rebind.fixture:${port}/`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect((err as Error).message).toBe('URL refused: the host resolves to a loopback address');
  });

  it.each(['localhost', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]'])('says why %s is refused without naming an address', async (host) => {
    const err = await r.render(renderRequest(`http://${host}:${sites.forbiddenPort}/`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect((err as Error).message).toMatch(/^URL refused: the host (is|resolves to) a loopback( \(IPv4 inside IPv6\))? address$/);
    expect((err as Error).message).not.toMatch(/\d+\.\d+\.\d+\.\d+|::|7f00|2130706433|0x7f/i);
  });

  it("says an unresolvable name could not be resolved, without the resolver's text", async () => {
    const err = await r.render(renderRequest('http://does-not-exist.invalid/')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect((err as Error).message).toBe('target unreachable: net::ERR_NAME_NOT_RESOLVED at http://does-not-exist.invalid/ (the host could not be resolved)');
    expect((err as Error).message).not.toMatch(/ENOTFOUND|EAI_|getaddrinfo/);
  });

  it('refuses schemes other than http(s)', async () => {
    await expect(r.render(renderRequest('file:///etc/passwd'))).rejects.toBeInstanceOf(UrlForbiddenError);
  });
});

describe('HTTPS through the egress tunnel', () => {
  it('reports a TLS failure as TARGET_UNREACHABLE with the certificate error', async () => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtempSync: tmp, readFileSync: read } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { createServer } = await import('node:https');
    const dir = tmp(join(tmpdir(), 'renderer-tls-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=127.0.0.2'],
      { stdio: 'ignore' },
    );
    const server = createServer({ key: read(`${dir}/key.pem`), cert: read(`${dir}/cert.pem`) }, (_req, res) => res.end('<h1>tls</h1>'));
    await new Promise<void>((res) => server.listen(0, '127.0.0.2', () => res()));
    const port = (server.address() as { port: number }).port;
    try {
      const err = await r.render(renderRequest(`https://127.0.0.2:${port}/`)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TargetUnreachableError);
      expect((err as Error).message).toMatch(/net::ERR_CERT_[A-Z_]+ at https:\/\/127\.0\.0\.2:/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a redirect to an https URL on a forbidden host', async () => {
    const before = sites.forbiddenHits();
    const target = `https://127.0.0.1:${sites.forbiddenPort}/`;
    const err = await r.render(renderRequest(`${sites.origin}/redirect?to=${encodeURIComponent(target)}`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect(sites.forbiddenHits()).toBe(before);
  });
});

describe('isolation between requests', () => {
  it('gives every request a fresh context: no cookie or storage reaches the next one', async () => {
    const titles: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await r.render(renderRequest(`${sites.origin}/remember`, { screenshot: null }));
      titles.push(res.snapshot!.title);
    }
    expect(titles).toEqual(['cookie:none storage:none', 'cookie:none storage:none', 'cookie:none storage:none']);
  });
});
