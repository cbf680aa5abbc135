/** The benchmark's fixture sites: realistic, self-contained pages, each on its own origin on 127.0.0.2. */
import { join } from 'node:path';
import { serveStatic, type StaticSite } from '../../deploy/local/static-site.ts';

export const BENCH_SITES = [
  {
    name: 'bench-saas',
    description:
      'SaaS landing page: external CSS with gradients and a sticky blurred header, SVG logo, manifest, hero JPEG, inline SVG icons, avatars, pricing, JSON-LD Organization',
  },
  {
    name: 'bench-news',
    description: 'news article: ~4,000 words, 6 large photos (4 lazy), thumbnails, sidebar, comments, a reading-progress script, JSON-LD NewsArticle',
  },
  {
    name: 'bench-shop',
    description: 'shop listing: 24 products rendered client-side from embedded JSON (lazy 400x400 images), filters, banner, JSON-LD ItemList',
  },
  { name: 'bench-local', description: 'restaurant: inline CSS, CSS background hero, dish photos, microdata Restaurant with postal address' },
] as const;

export interface ServedSites {
  sites: Array<{ name: string; description: string; url: string }>;
  close(): Promise<void>;
}

export async function serveBenchSites(host = '127.0.0.2'): Promise<ServedSites> {
  const root = join(import.meta.dirname, '../fixtures/sites');
  const servers: StaticSite[] = [];
  try {
    for (const s of BENCH_SITES) servers.push(await serveStatic(join(root, s.name), { host }));
  } catch (err) {
    await Promise.all(servers.map((s) => s.close()));
    throw err;
  }
  return {
    sites: BENCH_SITES.map((s, i) => ({ name: s.name, description: s.description, url: `${servers[i]!.origin}/` })),
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
