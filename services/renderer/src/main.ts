import { runService } from '@enrich/shared/runtime';
import { RendererConfigSchema } from './config.ts';
import { startRenderer } from './service.ts';

await runService({ name: 'renderer', config: RendererConfigSchema, start: ({ nc, config, log }) => startRenderer({ nc, config, log }) });
