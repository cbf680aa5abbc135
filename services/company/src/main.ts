/** The company analyzer process: serves `analyze.company` over NATS through the common main. */
import { runService } from '@enrich/shared/runtime';
import { serveCompany } from './serve.ts';

await runService({ name: 'company', start: async ({ nc, log }) => serveCompany(nc, log) });
