import { runService } from '@enrich/shared/runtime';
import { ClassifierConfigSchema } from './config.ts';
import { startClassifier } from './service.ts';

await runService({
  name: 'classifier',
  config: ClassifierConfigSchema,
  start: ({ nc, config, log, instance }) => startClassifier({ nc, config, log, instance }),
});
