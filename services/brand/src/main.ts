import { runService } from '@enrich/shared/runtime';
import { serveBrand } from './serve.ts';

await runService({ name: 'brand', start: async ({ nc, log }) => serveBrand(nc, log) });
