/** The company analyzer process: serves `analyze.company` over NATS through the common main. */
import { runService } from '@enrich/shared/runtime';
import { serve } from '@enrich/shared/nats';
import { ANALYZE_COMPANY } from '@enrich/shared/contracts';
import { analyzeCompany } from './analyze.ts';

await runService({ name: 'company', start: async ({ nc, log }) => serve(nc, ANALYZE_COMPANY, async (req) => analyzeCompany(req), { log }) });
