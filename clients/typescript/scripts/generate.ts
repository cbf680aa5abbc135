/**
 * Regenerates src/schema.ts from the API's OpenAPI document with openapi-typescript (its CLI, as any
 * developer would run it against /openapi.json). The document is built in-process from the edge's
 * contracts, so no running stack is needed:
 *   node clients/typescript/scripts/generate.ts          (or: npm run generate -w clients/typescript)
 * src/schema.test.ts checks in `npm test` that the checked-in file matches what the edge serves.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../../../services/edge/src/openapi.ts';

export const CLIENT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_FILE = join(CLIENT_ROOT, 'src', 'schema.ts');

/** Runs openapi-typescript on an OpenAPI document (as JSON text) and writes the types to `outFile`. */
export async function generateTypes(documentJson: string, outFile: string): Promise<void> {
  const cli = join(dirname(createRequire(join(CLIENT_ROOT, 'package.json')).resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'enrich-client-gen-'));
  try {
    const docFile = join(dir, 'openapi.json');
    writeFileSync(docFile, documentJson);
    await promisify(execFile)(process.execPath, [cli, docFile, '--output', outFile], { cwd: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await generateTypes(JSON.stringify(buildOpenApiDocument()), SCHEMA_FILE);
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
