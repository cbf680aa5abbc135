// The playground: one form, one request to this API's own origin, the answer shown for a person
// next to the raw JSON and a curl. No build step, no dependencies; every value from an answer is
// put in the page as text or as a checked http(s)/data:image URL, never as HTML.

const $ = (id) => document.getElementById(id);
const KEY_ITEM = 'enrich-playground-key';
let openapi = null;
let openapiFailed = false;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'style') Object.assign(node.style, value);
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** Only web and inline-image URLs are shown or linked. */
function safeUrl(url, { image = false } = {}) {
  if (typeof url !== 'string' || url === '') return null;
  if (image && /^data:image\/(svg\+xml|png|jpeg|gif|webp)[;,]/i.test(url)) return url;
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

// ---- the API key: this browser only ------------------------------------------------------------

function loadKey() {
  const remembered = localStorage.getItem(KEY_ITEM);
  $('remember').checked = remembered !== null;
  $('key').value = remembered ?? sessionStorage.getItem(KEY_ITEM) ?? '';
}

function saveKey() {
  const key = $('key').value.trim();
  sessionStorage.setItem(KEY_ITEM, key);
  if ($('remember').checked) localStorage.setItem(KEY_ITEM, key);
  else localStorage.removeItem(KEY_ITEM);
}

// ---- parameters, from /openapi.json ------------------------------------------------------------

function paramControl(p) {
  const id = `param-${p.name}`;
  const schema = p.schema ?? {};
  const label = el('label', { for: id, text: p.name, title: p.description ?? '' });
  const control = (tag, attrs) =>
    el(tag, { id, 'data-param': p.name, ...(schema.default === undefined ? {} : { 'data-default': String(schema.default) }), ...attrs });
  if (schema.type === 'boolean') {
    const box = control('input', { type: 'checkbox' });
    box.checked = schema.default === true;
    return el('div', { class: 'param flag' }, box, label);
  }
  if (Array.isArray(schema.enum)) {
    const select = control('select', {});
    for (const value of schema.enum) {
      const option = el('option', { value, text: value });
      if (value === schema.default) option.selected = true;
      select.append(option);
    }
    return el('div', { class: 'param' }, label, select);
  }
  const attrs = { type: schema.type === 'integer' ? 'number' : 'text' };
  if (schema.minimum !== undefined) attrs.min = String(schema.minimum);
  if (schema.maximum !== undefined) attrs.max = String(schema.maximum);
  if (schema.default !== undefined) attrs.placeholder = String(schema.default);
  const input = control('input', attrs);
  // A palette from the screenshot is the playground's one non-default: it is what people come to see.
  if (p.name === 'screenshotColors') input.value = '6';
  return el('div', { class: 'param' }, label, input);
}

function renderParams() {
  const box = $('params');
  box.replaceChildren(el('legend', { text: 'Parameters' }));
  const op = openapi?.paths?.[`/${$('endpoint').value}`]?.get;
  const params = (op?.parameters ?? []).filter((p) => p.in === 'query' && p.name !== 'url');
  const none = openapi ? 'No parameters besides the URL.' : openapiFailed ? 'Parameters could not be loaded from /openapi.json.' : 'Loading parameters…';
  if (params.length === 0) box.append(el('p', { class: 'hint', text: none }));
  for (const p of params) box.append(paramControl(p));
}

function queryFromForm() {
  const qs = new URLSearchParams({ url: $('url').value.trim() });
  // Only what differs from the API's defaults, so the curl shows what was chosen.
  for (const input of document.querySelectorAll('[data-param]')) {
    const value = input.type === 'checkbox' ? String(input.checked) : input.value.trim();
    if (value !== '' && value !== (input.dataset.default ?? (input.type === 'checkbox' ? 'false' : ''))) qs.set(input.dataset.param, value);
  }
  return qs;
}

// ---- the answer, for a person -------------------------------------------------------------------

function card(title, ...children) {
  const wide = title === 'Screenshot' || title === 'Colors';
  return el('section', { class: wide ? 'card wide' : 'card', 'aria-label': title }, el('h2', { text: title }), ...children);
}

function screenshotCard(data) {
  const src = safeUrl(data.images?.screenshot_url ?? data.screenshot_url, { image: true });
  return src ? card('Screenshot', el('div', { class: 'shot' }, el('img', { src, alt: `Screenshot of ${data.url ?? 'the page'}` }))) : null;
}

function logosCard(logos) {
  if (!logos) return null;
  const seen = new Set();
  const items = [];
  const add = (url, caption) => {
    const src = safeUrl(url, { image: true });
    if (!src || seen.has(src)) return;
    seen.add(src);
    items.push(el('figure', {}, el('img', { src, alt: caption, class: 'logo' }), el('figcaption', { text: caption })));
  };
  if (logos.primary) add(logos.primary.url, `Primary logo (${logos.primary.source}, score ${logos.primary.score})`);
  for (const logo of logos.secondary ?? []) add(logo.url, `${logo.source} (score ${logo.score})`);
  add(logos.favicon_url, 'Favicon');
  add(logos.icon_url, 'Icon');
  add(logos.apple_touch_icon, 'Apple touch icon');
  return card('Logos', items.length ? el('div', { class: 'logos' }, ...items) : el('p', { class: 'empty', text: 'No logo found.' }));
}

function swatchList(label, entries) {
  const list = el('ul', { class: 'swatches', 'aria-label': label });
  for (const c of entries) {
    list.append(
      el(
        'li',
        { class: 'swatch', 'data-hex': c.hex },
        el('span', { class: 'chip', style: { background: c.hex }, 'aria-hidden': 'true' }),
        el('span', { class: 'name', text: c.name }),
        el('span', { class: 'meta', text: `${c.hex} · ${c.percentage}%` }),
      ),
    );
  }
  return [el('h3', { text: label }), list];
}

function colorsCard(colors) {
  if (!colors) return null;
  const parts = [];
  if (colors.brand_colors?.length) parts.push(...swatchList('Brand colors', colors.brand_colors));
  if (colors.screenshot_colors?.length) parts.push(...swatchList('Screenshot colors', colors.screenshot_colors));
  for (const kind of ['css', 'html', 'javascript']) {
    const hexes = colors.code_colors?.[kind] ?? [];
    if (hexes.length)
      parts.push(
        ...swatchList(
          `Colors in ${kind.toUpperCase()}`,
          hexes.slice(0, 24).map((hex) => ({ hex, name: hex, percentage: '–' })),
        ),
      );
  }
  return card('Colors', ...(parts.length ? parts : [el('p', { class: 'empty', text: 'No colors found.' })]));
}

function fontsCard(fonts) {
  if (!fonts) return null;
  const list = el('ul', { class: 'fonts' });
  for (const family of fonts.families ?? []) {
    const where = [fonts.google_fonts?.includes(family) ? 'Google Fonts' : '', fonts.typekit?.includes(family) ? 'Adobe Fonts' : ''].filter(Boolean).join(', ');
    list.append(
      el(
        'li',
        { style: { fontFamily: `"${family.replace(/"/g, '')}", sans-serif` } },
        document.createTextNode(family),
        where ? el('small', { text: where }) : null,
      ),
    );
  }
  return card('Fonts', list.childElementCount ? list : el('p', { class: 'empty', text: 'No fonts found.' }));
}

function socialCard(links) {
  if (!links) return null;
  const list = el('ul', { class: 'links' });
  for (const [network, url] of Object.entries(links)) {
    const href = safeUrl(url);
    if (href) list.append(el('li', {}, document.createTextNode(`${network}: `), el('a', { href, rel: 'noopener noreferrer', target: '_blank', text: href })));
  }
  return card('Social links', list.childElementCount ? list : el('p', { class: 'empty', text: 'No social profiles found.' }));
}

function companyCard(company) {
  if (!company) return null;
  const row = (term, value) => [el('dt', { text: term }), el('dd', { text: value || '–' })];
  return card(
    'Company',
    el(
      'dl',
      { class: 'company' },
      ...row('Legal name', company.name),
      ...row('Brand name', company.brand_name),
      ...row('Emails', (company.emails ?? []).join(', ')),
      ...row('Addresses', (company.addresses ?? []).join(' · ')),
      ...row('Confidence', String(company.confidence)),
      ...row('Sources', (company.sources ?? []).join(', ')),
    ),
  );
}

function categoryCard(c) {
  if (!c) return null;
  return card(
    'Category',
    el(
      'div',
      { class: 'category' },
      el('span', { class: 'path', text: c.subcategory ? `${c.category} › ${c.subcategory}` : c.category }),
      el('span', { class: 'id', text: c.iab_id }),
      el('p', { text: c.description }),
    ),
  );
}

function renderView(data) {
  const company = data.company ?? (Array.isArray(data.emails) ? data : null);
  const classification = data.classification ?? (data.iab_id ? data : null);
  const cards = [
    screenshotCard(data),
    logosCard(data.logos),
    categoryCard(classification),
    colorsCard(data.colors),
    companyCard(company),
    fontsCard(data.fonts),
    socialCard(data.social_links),
  ];
  $('view').replaceChildren(...cards.filter(Boolean));
}

// ---- the request --------------------------------------------------------------------------------

function curlFor(path, key) {
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  return `curl -s -H ${quote(`X-API-Key: ${key}`)} ${quote(new URL(path, location.origin).href)}`;
}

async function send(event) {
  event.preventDefault();
  const key = $('key').value.trim();
  if (!$('url').value.trim() || !key) {
    showError(!key ? 'Type your API key (create one with: npm run keys -- create --name me --credits 100).' : 'Type the URL of a website.');
    return;
  }
  saveKey();
  const path = `/${$('endpoint').value}?${queryFromForm()}`;
  $('send').disabled = true;
  $('status').textContent = 'Loading the page in a headless browser…';
  $('error').hidden = true;
  try {
    // A relative URL: the key only ever goes to this API's own origin (the CSP allows nothing else).
    const res = await fetch(path, { headers: { 'x-api-key': key, accept: 'application/json' } });
    const body = await res.json().catch(() => null);
    $('curl').textContent = curlFor(path, key);
    $('json').textContent = JSON.stringify(body, null, 2);
    if (!res.ok || !body?.success) {
      showError(`${res.status}: ${body?.error ?? res.statusText}${body?.meta?.requestId ? ` (request ${body.meta.requestId})` : ''}`);
      $('view').replaceChildren();
    } else renderView(body.data);
    $('result').hidden = false;
    $('status').textContent = body?.meta ? `${res.status} in ${body.meta.durationMs} ms` : String(res.status);
  } catch (err) {
    showError(`The API did not answer: ${err.message}`);
    $('status').textContent = '';
  } finally {
    $('send').disabled = false;
  }
}

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = false;
}

async function copyCurl() {
  try {
    await navigator.clipboard.writeText($('curl').textContent);
    $('copy').textContent = 'Copied';
  } catch {
    getSelection().selectAllChildren($('curl'));
    $('copy').textContent = 'Press Ctrl+C';
  }
  setTimeout(() => {
    $('copy').textContent = 'Copy curl';
  }, 1500);
}

loadKey();
$('request').addEventListener('submit', send);
$('endpoint').addEventListener('change', renderParams);
$('remember').addEventListener('change', saveKey);
$('copy').addEventListener('click', copyCurl);
renderParams();
fetch('/openapi.json')
  .then((r) => r.json())
  .then((doc) => {
    openapi = doc;
  })
  .catch(() => {
    openapiFailed = true;
  })
  .finally(renderParams);
