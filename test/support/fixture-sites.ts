/**
 * Fixture sites for the renderer's integration tests: the allowed site on 127.0.0.2 (the test
 * allow-list), and a "forbidden" server on 127.0.0.1 that only counts who reached it.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const SITES = fileURLToPath(new URL('../fixtures/sites/', import.meta.url));
const page = (site: string): string => readFileSync(`${SITES}${site}/index.html`, 'utf8');

async function solidPng(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

export interface FixtureSites {
  /** `http://127.0.0.2:<port>` */
  origin: string;
  /** `http://127.0.0.1:<port>`: must never be reached by the browser. */
  forbiddenOrigin: string;
  forbiddenPort: number;
  /** Connections and requests the forbidden server saw. */
  forbiddenHits(): number;
  /** Requests the allowed site received for a path. */
  hits(path: string): number;
  /** A port on 127.0.0.2 with nothing listening. */
  closedPort: number;
  close(): Promise<void>;
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    });
  });
}

export function bigPage(minBytes: number): string {
  const para = '<p class="filler">Acme Roasters ships freshly roasted coffee across the United Kingdom every week; this paragraph pads the page.</p>\n';
  const count = Math.ceil(minBytes / para.length) + 1;
  return `<!DOCTYPE html><html lang="en"><head><title>Big page</title></head><body><header><a href="/"><img class="logo" src="/assets/logo.png" alt="Acme"></a></header><h1>Archive</h1>\n${para.repeat(count)}<footer>The end</footer></body></html>`;
}

export async function startFixtureSites(): Promise<FixtureSites> {
  const png = {
    logo: await solidPng(120, 40, [192, 57, 43]),
    declared: await solidPng(64, 64, [41, 128, 185]),
    hero: await solidPng(600, 120, [243, 156, 18]),
    red: await solidPng(400, 300, [255, 0, 0]),
    blue: await solidPng(400, 300, [0, 0, 255]),
  };
  const big = bigPage(5.5 * 1024 * 1024);
  let forbiddenHits = 0;
  const forbidden = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('internal secret');
  });
  forbidden.on('connection', () => {
    forbiddenHits++;
  });
  forbidden.on('upgrade', (_req, socket) => {
    forbiddenHits++;
    socket.destroy();
  });
  const forbiddenPort = await listen(forbidden, '127.0.0.1');
  const forbiddenOrigin = `http://127.0.0.1:${forbiddenPort}`;

  const html = (res: import('node:http').ServerResponse, body: string, status = 200): void => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const image = (res: import('node:http').ServerResponse, body: Buffer): void => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
    res.end(body);
  };

  const hits = new Map<string, number>();
  const site = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    switch (url.pathname) {
      case '/':
        return html(res, page('renderer-basic'));
      // Echoes what the browser brought (cookie, localStorage), then leaves both behind for the next visitor.
      case '/remember':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'visitor=seen; Path=/; Max-Age=3600' });
        return void res.end(`<!doctype html><title>cookie:${req.headers.cookie ?? 'none'}</title><body><script>
          document.title += ' storage:' + (localStorage.getItem('visitor') ?? 'none'); localStorage.setItem('visitor', 'seen');</script></body>`);
      case '/assets/site.css':
        res.writeHead(200, { 'content-type': 'text/css' });
        return res.end(
          '@import url("/assets/extra.css");\nbody { font-family: Georgia, "Times New Roman", serif; color: rgb(34, 34, 34); margin: 0 }\n.site-header { background-color: rgb(20, 40, 60); --header-h: 64px; }\n:root { --accent: #f39c12; }\n',
        );
      case '/assets/extra.css':
        res.writeHead(200, { 'content-type': 'text/css' });
        return res.end('.promo { color: rgb(1, 2, 3) }\n');
      case '/assets/theme.js':
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return res.end("window.theme = { primary: '#c0392b' };\n");
      case '/assets/logo.png':
        return image(res, png.logo);
      case '/assets/logo-declared.png':
        return image(res, png.declared);
      case '/assets/hero.png':
        return image(res, png.hero);
      case '/img/red.png':
        return image(res, png.red);
      case '/img/blue.png':
        return image(res, png.blue);
      case '/logo-file': {
        // A header logo shown as its file is, or through a CSS filter (the raster must show the filter's colours).
        const logo: Record<string, string> = {
          plain: '<img src="/img/red-logo.svg" alt="Acme Roasters" width="160" height="48">',
          filtered: '<img src="/img/red-logo.svg" alt="Acme Roasters" width="160" height="48" style="filter:invert(1)">',
          data: `<img src="data:image/png;base64,${png.declared.toString('base64')}" alt="Acme Roasters logo" width="64" height="64">`,
          // The SVG drawn by <object> or <embed>, and a lazy loader's placeholder whose script never ran.
          // (No type on the object: it is known by its file name; a plug-in beside it is not an image.)
          object: '<object data="/img/red-logo.svg" width="160" height="48">Acme Roasters</object><embed src="/media/intro.swf" width="10" height="10">',
          embed: '<embed src="/img/red-logo.svg" type="image/svg+xml" width="160" height="48">',
          lazy: '<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" data-src="/img/red-logo.svg" alt="Acme Roasters" width="160" height="48">',
        };
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Acme Roasters</title></head><body style="margin:0;background:#fff"><header><a href="/" class="brand-link">${logo[url.searchParams.get('as') ?? 'plain']}</a></header><main><h1>Coffee</h1><p>Roasted weekly.</p></main></body></html>`,
        );
      }
      case '/css-logo':
        // The classic CSS logo: a link home drawn by its background, its text indented away, in no <header>.
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Acme Roasters</title></head><body style="margin:0"><div id="top"><h1 id="site-id"><a href="/" style="display:block;width:160px;height:48px;background:url(/img/red-logo.svg) no-repeat;text-indent:-9999px;overflow:hidden">Acme Roasters</a></h1></div><main><h2>Coffee</h2><p>Roasted weekly.</p></main></body></html>',
        );
      case '/img/red-logo.svg':
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        return void res.end(
          '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48"><rect x="4" y="4" width="152" height="40" rx="6" fill="#d0021b"/></svg>',
        );
      case '/spa/':
        return html(res, page('renderer-spa'));
      case '/api/products':
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              title: 'Shop: Acme',
              heading: 'Rendered by JavaScript',
              products: [
                { id: 1, name: 'House blend' },
                { id: 2, name: 'Decaf' },
              ],
            }),
          );
        }, 300);
        return;
      case '/lazy/':
        return html(res, page('renderer-lazy'));
      case '/observed':
        // A section far down that an IntersectionObserver fills when it is seen; no lazy marker of its own.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Observed</title></head><body style="margin:0"><div style="height:6000px;position:relative">
<section id="late" style="position:absolute;top:3500px;height:300px;width:100%"></section></div><script>
const io = new IntersectionObserver((entries) => { for (const e of entries) if (e.isIntersecting) { io.unobserve(e.target); e.target.textContent = 'Section seen by the reader'; } });
io.observe(document.getElementById('late'));
</script></body></html>`,
        );
      case '/big':
        return html(res, big);
      case '/tall':
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Tall</title><style>body{margin:0}</style></head><body><div style="height:30000px;background:linear-gradient(#fff,#048)"></div></body></html>',
        );
      case '/tall-liar':
        // 30 000 px of content whose scripts claim the document is 600 px tall.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Tall liar</title><style>body{margin:0}</style><script>
          for (const [proto, names] of [[Element.prototype, ['scrollHeight', 'clientHeight']], [HTMLElement.prototype, ['offsetHeight']]]) {
            for (const name of names) Object.defineProperty(proto, name, { get: () => 600, configurable: true });
          }
        </script></head><body><div style="height:30000px;background:linear-gradient(#fff,#048)"></div></body></html>`,
        );
      case '/slow':
        setTimeout(
          () => html(res, '<!DOCTYPE html><html><head><title>Slow</title></head><body><h1>Slow but done</h1></body></html>'),
          Number(url.searchParams.get('ms') ?? 1000),
        );
        return;
      case '/cells':
        // A row of table cells in the page and in its footer: each cell is a line of the text.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Locations</title></head><body><table><tr><td><strong>Ready Credit Used Cars</strong></td>
          <td>32 Corporation Street<br>Hyannis, MA 02601</td><td>(508) 771-1000</td></tr></table>
          <footer><table><tr><td>Home</td><td>Contact</td></tr></table></footer></body></html>`,
        );
      case '/hang':
        // Headers and half a document, then nothing: DOMContentLoaded never fires.
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!DOCTYPE html><html><head><title>Never done</title></head><body><p>Still loading');
        return;
      case '/moves-after-load':
        // Goes to another page by itself just after it loaded, while the renderer settles or reads it.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Before</title></head><body><h1>Before the move</h1><div style="height:3000px"></div>
          <script>addEventListener('load', () => setTimeout(() => { location.href = '/moved-here'; }, 30));</script></body></html>`,
        );
      case '/moved-here':
        return html(res, '<!DOCTYPE html><html><head><title>Moved</title></head><body><h1>After the move</h1><div style="height:3000px"></div></body></html>');
      case '/hash-on-load':
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Hash</title></head><body><h1 id="top">Top</h1><script>addEventListener("load", () => { location.hash = "top"; });</script></body></html>',
        );
      case '/refresh-moves':
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Refresh</title><meta http-equiv="refresh" content="0;url=/moved-here"></head><body><h1>Refreshing</h1></body></html>',
        );
      case '/script-moves-to-forbidden':
        // A script sends the page to a forbidden host while it loads: the browser is left on its error page.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Away</title><script>location.href = '${forbiddenOrigin}/admin';</script></head><body><h1>Going</h1></body></html>`,
        );
      case '/image-map':
        // A header image whose map areas link to the contact address and a social profile.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Map</title></head><body><header><img src="/assets/logo.png" usemap="#top" alt="Acme Maps">
          <map name="top"><area shape="rect" coords="0,0,40,40" href="mailto:orders@maps.example" alt="Email"><area shape="rect" coords="40,0,80,40" href="https://twitter.com/acmemaps" alt="Twitter"></map></header>
          <h1>Acme Maps</h1></body></html>`,
        );
      case '/web-components':
        // Header, contact card and a nested component render into open shadow roots: neither
        // innerText nor querySelectorAll sees inside them.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Components</title></head><body><site-header></site-header><h1>Light heading</h1>
          <contact-card><span slot="note">Open weekdays</span></contact-card><script>
          customElements.define('site-header', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML =
            '<header><a href="/"><img src="/assets/logo.png" alt="Acme Components"></a><nav><a href="/about">About us</a></nav></header>'; } });
          customElements.define('contact-card', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML =
            '<style>p { color: rgb(1, 2, 3) }</style><h2>Write to us</h2><p>sales@components.example</p><a href="mailto:hello@components.example">Email</a><slot name="note"></slot><inner-bit></inner-bit>'; } });
          customElements.define('inner-bit', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<p>Nested shadow text</p>'; } });
          </script></body></html>`,
        );
      case '/busy-script':
        // Two seconds of work after load, then done: slow, not runaway.
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Busy</title></head><body><h1>Busy</h1><script>addEventListener("load", () => { const end = Date.now() + 2000; while (Date.now() < end) {} document.title = "Finished"; });</script></body></html>',
        );
      case '/runaway-script':
        // An endless loop in the load handler: the main thread never answers again.
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Runaway</title></head><body><h1>Readable</h1><script>addEventListener("load", () => { for (;;) {} });</script></body></html>',
        );
      case '/script-moves-to':
        // A script sends the page wherever `to` says while it loads.
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Away</title><script>location.href = ${JSON.stringify(url.searchParams.get('to') ?? '/')};</script></head><body><h1>Going</h1></body></html>`,
        );
      case '/stuck-script':
        // The whole document arrives, but the parser waits forever for a script that never answers.
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Stuck script</title></head><body><h1>Readable</h1><script src="/never.js"></script><p>Never parsed</p></body></html>',
        );
      case '/never.js':
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return; // never ends: DOMContentLoaded never fires
      case '/stuck-image':
        return html(res, '<!DOCTYPE html><html><head><title>Stuck image</title></head><body><h1>Readable</h1><img src="/never.png"></body></html>');
      case '/never.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return; // never ends: the load event never fires
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
        return res.end();
      // A frameset site: its text and links live in the frames' documents; the main frame nests a
      // frame of another site (shop.fixture in the render tests' resolver), which is not the page's.
      case '/frames':
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Framed Widgets</title></head><frameset cols="25%,75%"><frame src="/frames/menu"><frame src="/frames/main"></frameset></html>',
        );
      case '/frames/menu':
        return html(res, '<!DOCTYPE html><html><body><a href="/frames/main">Home</a> <a href="/frames/contact">Contact</a></body></html>');
      case '/frames/main':
        return html(
          res,
          `<!DOCTYPE html><html><body><h1>Welcome to Framed Widgets</h1><p>Write to <a href="mailto:hello@framed.example">our team</a> or sales@framed.example.</p>` +
            `<iframe src="http://shop.fixture:${(req.headers.host ?? '').split(':')[1]}/frames/foreign" width="300" height="100"></iframe>` +
            `<iframe src="/frames/hidden" style="display:none"></iframe></body></html>`,
        );
      case '/frames/foreign':
        return html(
          res,
          '<!DOCTYPE html><html><body><p>Reviews by a widget: <a href="mailto:widget@foreign.example">write to the widget</a></p></body></html>',
        );
      case '/frames/hidden':
        return html(res, '<!DOCTYPE html><html><body><p>Preloaded: hidden@framed.example</p></body></html>');
      case '/media':
        return html(
          res,
          '<!DOCTYPE html><html><head><title>Media</title></head><body><h1>Video</h1><video src="/assets/clip.mp4" autoplay muted></video><audio src="/assets/song.mp3" autoplay></audio><video autoplay muted><source src="/stream/clip"></video><a href="/assets/brochure.zip">Brochure</a><iframe src="/media/frame"></iframe>' +
            `<iframe src="http://shop.fixture:${(req.headers.host ?? '').split(':')[1]}/media/foreign-frame"></iframe>` +
            "<script>addEventListener('load', () => { const v = document.createElement('video'); v.src = '/assets/late.mp4'; v.muted = true; v.autoplay = true; document.body.append(v); });</script></body></html>",
        );
      case '/media/frame':
        return html(res, '<!DOCTYPE html><html><body><p>Trailer</p><video src="/assets/trailer.webm" autoplay muted></video></body></html>');
      case '/media/foreign-frame':
        return html(res, '<!DOCTYPE html><html><body><p>A player</p><video src="/assets/player.webm" autoplay muted></video></body></html>');
      case '/ws':
        return html(
          res,
          `<!DOCTYPE html><html><head><title>connecting</title></head><body><script>
          const ws = new WebSocket('ws://' + location.host + '/socket');
          ws.onopen = () => { document.title = 'socket open'; };
          ws.onerror = () => { document.title = 'socket failed'; };
        </script></body></html>`,
        );
      case '/leaky':
        return html(
          res,
          `<!DOCTYPE html><html><head><title>Leaky</title><link rel="stylesheet" href="${forbiddenOrigin}/x.css"></head><body><h1>Leaky page</h1>
          <img src="${forbiddenOrigin}/secret.png"><img src="/redirect?to=${encodeURIComponent(forbiddenOrigin + '/via-redirect.png')}">
          <script>
            fetch('${forbiddenOrigin}/api').catch(() => {});
            try { new WebSocket('ws://127.0.0.1:${forbiddenPort}/ws'); } catch (e) {}
            new Worker(URL.createObjectURL(new Blob(["fetch('${forbiddenOrigin}/from-worker').catch(() => {})"], { type: 'text/javascript' })));
          </script></body></html>`,
        );
      default:
        return html(res, '<!DOCTYPE html><title>Not found</title><h1>Not found</h1>', 404);
    }
  });
  // Just enough of RFC 6455 for the page's onopen to fire.
  const upgraded = new Set<import('node:stream').Duplex>();
  site.on('upgrade', (req, socket) => {
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    socket.on('error', () => socket.destroy());
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  });
  const port = await listen(site, '127.0.0.2');

  const closed = createServer();
  const closedPort = await listen(closed, '127.0.0.2');
  await new Promise<void>((r) => closed.close(() => r()));

  return {
    origin: `http://127.0.0.2:${port}`,
    forbiddenOrigin,
    forbiddenPort,
    forbiddenHits: () => forbiddenHits,
    hits: (path) => hits.get(path) ?? 0,
    closedPort,
    close: async () => {
      site.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      forbidden.closeAllConnections();
      await Promise.all([new Promise((r) => site.close(r)), new Promise((r) => forbidden.close(r))]);
    },
  };
}
