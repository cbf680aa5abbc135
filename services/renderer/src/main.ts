import { ConfigError, runService } from '@enrich/shared/runtime';
import { RendererConfigSchema, refuseTestSwitchesInProduction } from './config.ts';
import { startRenderer } from './service.ts';

try {
  refuseTestSwitchesInProduction(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`renderer: ${err.message}\n`);
  process.exit(78); // EX_CONFIG, as runService does for every other invalid setting
}

await runService({ name: 'renderer', config: RendererConfigSchema, start: ({ nc, config, log }) => startRenderer({ nc, config, log }) });
