import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * scripts/node-modules-current.mjs, which every `npm run` script and `up`
 * runs before anything needs a package: node_modules is current only when it
 * holds exactly what package-lock.json pins. Lockfiles composed here.
 */
const script = new URL('./node-modules-current.mjs', import.meta.url).pathname;
let dir: string;

const pinned = {
  '': { name: 'x', workspaces: ['a'] },
  'node_modules/tsx': { version: '4.23.15', resolved: 'https://registry.npmjs.org/tsx/-/tsx-4.23.15.tgz', integrity: 'sha512-aaa' },
  'node_modules/@evidence-record/a': { resolved: 'a', link: true },
  a: { name: '@evidence-record/a', version: '0.1.0' },
  'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true, os: ['darwin'] },
};
const installed = Object.fromEntries(Object.entries(pinned).filter(([p]) => p !== '' && !p.includes('darwin')));

async function current(lock: object | null, hidden: object | null): Promise<boolean> {
  await rm(join(dir, 'node_modules'), { recursive: true, force: true });
  await rm(join(dir, 'package-lock.json'), { force: true });
  if (lock) await writeFile(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: lock }));
  if (hidden) {
    await mkdir(join(dir, 'node_modules'));
    await writeFile(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: hidden }));
  }
  return new Promise((resolve) => execFile(process.execPath, [script], { cwd: dir }, (err) => resolve(!err)));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'er-nm-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('node_modules is current', () => {
  it('when it holds what the lockfile pins (another platform\'s optional binaries aside)', async () => {
    expect(await current(pinned, installed)).toBe(true);
  });

  it('not on a fresh clone (no node_modules), nor without a lockfile', async () => {
    expect(await current(pinned, null)).toBe(false);
    expect(await current(null, installed)).toBe(false);
  });

  it('not when the lockfile moved on (a pull, a branch switch): another version, a new package, one removed', async () => {
    expect(await current({ ...pinned, 'node_modules/tsx': { ...pinned['node_modules/tsx'], version: '4.24.0', integrity: 'sha512-bbb' } }, installed)).toBe(false);
    expect(await current({ ...pinned, 'node_modules/negotiator': { version: '1.1.0', integrity: 'sha512-ccc' } }, installed)).toBe(false);
    expect(await current(pinned, { ...installed, 'node_modules/left-over': { version: '1.0.0', integrity: 'sha512-ddd' } })).toBe(false);
  });
});
