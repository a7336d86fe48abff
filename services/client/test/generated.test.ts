import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../scripts/generated';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('generated client files', () => {
  it('are exactly what the contract generates now (run npx tsx services/client/scripts/generate.ts after a contract change)', async () => {
    const fresh = await generatedFiles();
    expect(Object.keys(fresh).sort()).toEqual(['openapi.json', 'src/routes.ts', 'src/schema.ts']);
    for (const [name, content] of Object.entries(fresh)) {
      const committed = await readFile(join(root, name), 'utf8');
      // Compare as booleans first so a drift reports the file name, not a 300 kB diff.
      expect(committed === content, `${name} differs from a fresh generation`).toBe(true);
    }
  });
});
