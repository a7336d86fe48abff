/**
 * Generates the client's files from the contract, so the client never drifts
 * from what the gateway serves:
 *   src/schema.ts  the document's TypeScript types (openapi-typescript)  } build artifacts, gitignored:
 *   src/routes.ts  the operation route table                            } `npm ci` and `npm test` write them
 *   openapi.json   the OpenAPI document (buildOpenApiDocument, as served at /api/v1/openapi.json), committed
 *   ../../load-tests/lib/capabilities.ts   the k6 scenarios' table of operations, committed
 *
 *   npx tsx services/client/scripts/generate.ts              write the types and the route table
 *   npx tsx services/client/scripts/generate.ts --document   also rewrite the committed files (after a contract change)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { committedDocument, generatedSources } from './generated';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = { ...(await generatedSources()), ...(process.argv.includes('--document') ? committedDocument() : {}) };
for (const [name, content] of Object.entries(files)) {
  const path = join(root, name);
  if ((await readFile(path, 'utf8').catch(() => null)) === content) continue;
  await writeFile(path, content);
  console.error(`wrote ${relative(join(root, '..', '..'), path)}`);
}
