import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { capabilityList } from '@evidence-record/contract';
import { routes } from '../src/routes';
import { committedDocument, generatedSources } from '../scripts/generated';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('generated client files', () => {
  it('the committed openapi.json and the load tests\' table of operations are exactly what the contract generates now (run npx tsx services/client/scripts/generate.ts --document after a contract change)', async () => {
    for (const [name, content] of Object.entries(committedDocument())) {
      const committed = await readFile(join(root, name), 'utf8');
      // Compare as booleans first so a drift reports the file name, not a 300 kB diff.
      expect(committed === content, `${name} differs from a fresh generation`).toBe(true);
    }
  });

  it('the types and the route table are generated deterministically: two generations are byte for byte the same', async () => {
    const [first, second] = [await generatedSources(), await generatedSources()];
    expect(Object.keys(first).sort()).toEqual(['src/routes.ts', 'src/schema.ts']);
    expect(Object.keys(second).sort()).toEqual(Object.keys(first).sort());
    for (const [name, content] of Object.entries(first)) expect(second[name] === content, `${name} differs between two generations`).toBe(true);
  });

  it('the generated files in place (which the type-check reads) are the fresh generation (run npx tsx services/client/scripts/generate.ts)', async () => {
    for (const [name, content] of Object.entries(await generatedSources())) {
      const inPlace = await readFile(join(root, name), 'utf8');
      expect(inPlace === content, `${name} is not what the contract generates now`).toBe(true);
    }
  });

  it('the route table gives every capability of the contract its method and path', () => {
    for (const cap of capabilityList) expect(routes[cap.name], cap.name).toEqual({ method: cap.method, path: cap.path.replace(/:([a-z_]+)/g, '{$1}') });
  });
});
