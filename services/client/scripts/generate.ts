/**
 * Generates the client's committed files from the contract, so the client
 * never drifts from what the gateway serves:
 *   openapi.json   the OpenAPI document (buildOpenApiDocument, as served at /api/v1/openapi.json)
 *   src/schema.ts  its TypeScript types (openapi-typescript)
 *
 *   npx tsx services/client/scripts/generate.ts           write both
 *   npx tsx services/client/scripts/generate.ts --check   exit 1 if a committed file differs
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './generated';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
let stale = 0;
for (const [name, content] of Object.entries(await generatedFiles())) {
  const path = join(root, name);
  const committed = await readFile(path, 'utf8').catch(() => null);
  if (committed === content) continue;
  if (check) {
    console.error(`${name} is not what the contract generates: run npx tsx services/client/scripts/generate.ts`);
    stale += 1;
  } else {
    await writeFile(path, content);
    console.error(`wrote ${name}`);
  }
}
process.exit(stale > 0 ? 1 : 0);
