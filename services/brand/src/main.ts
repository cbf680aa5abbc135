import { runService } from '@enrich/shared/runtime';
import { serve } from '@enrich/shared/nats';
import { ANALYZE_BRAND } from '@enrich/shared/contracts';
import { analyzeBrand } from './analyze.ts';

await runService({ name: 'brand', start: async ({ nc, log }) => serve(nc, ANALYZE_BRAND, async (req) => analyzeBrand(req), { log }) });
