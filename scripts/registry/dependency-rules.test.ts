import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import config, { cruiseOptions, dependencyRules, deployableDirs, temporaryExceptions, workspaceDirs as ruleWorkspaces, type TemporaryException } from '../../.dependency-cruiser.mjs';
import { repoRoot, workspaceDirs } from './generate';

/**
 * The dependency rules (.dependency-cruiser.mjs, decision 2051) hold over the
 * product code, and fail when broken: run on a small tree that breaks each.
 */
async function cruiseTree(root: string, paths: string[], rules: IForbiddenRuleType[]): Promise<ICruiseResult> {
  const { output } = await cruise(paths, { ...cruiseOptions, baseDir: root, validate: true, ruleSet: { forbidden: rules } });
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a cruise result');
  return output;
}

/** One line per violation: rule, importer → imported (and the cycle it closes). */
function listed(result: ICruiseResult): string[] {
  return result.summary.violations
    .map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')})` : ''}`)
    .sort();
}

describe('dependency rules (dependency-cruiser)', () => {
  let repo: ICruiseResult;

  it('the product code has no import cycle, no relative import across packages, and imports no deployable service beyond the named exceptions', async () => {
    repo = await cruiseTree(repoRoot, ['services', 'gateway', 'scripts', 'test', 'examples'], config.forbidden);
    expect(repo.summary.totalCruised).toBeGreaterThan(500);
    expect(listed(repo), 'see .dependency-cruiser.mjs for what each rule asks').toEqual([]);
  });

  it('every temporary exception still excuses an import (remove the ones whose violation is gone)', () => {
    const deployables = deployableDirs(repoRoot);
    const used = (e: TemporaryException) =>
      repo.modules.some(
        (m) => new RegExp(e.from).test(m.source) && m.dependencies.some((d) => (e.rule === 'no-circular' ? d.circular : d.resolved.startsWith(`${deployables[e.deployable]}/`))),
      );
    expect(temporaryExceptions.filter((e) => !used(e)).map((e) => e.name)).toEqual([]);
  });

  it('reads the same workspaces as the registry generator', () => {
    expect(ruleWorkspaces(repoRoot)).toEqual(workspaceDirs());
    expect(deployableDirs(repoRoot)).toMatchObject({ monitor: 'services/monitor', gateway: 'gateway', record: 'services/record' });
  });

  describe('on a tree that breaks each rule', () => {
    const root = mkdtempSync(join(tmpdir(), 'er-dependency-rules-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('package.json', JSON.stringify({ name: 'fixture', private: true, type: 'module', workspaces: ['services/*'] }));
    write('services/registry/package.json', JSON.stringify({ name: '@fx/registry' }));
    write('services/registry/registry.json', JSON.stringify({ services: [{ name: 'alpha', entry: 'services/alpha/src/main.ts' }] }));
    write('services/alpha/package.json', JSON.stringify({ name: '@fx/alpha', type: 'module', exports: { '.': './src/index.ts' } }));
    write('services/alpha/src/index.ts', 'export const alpha = 1;\n');
    write('services/alpha/src/main.ts', "import { alpha } from './index';\nexport const main = alpha;\n");
    write('services/beta/package.json', JSON.stringify({ name: '@fx/beta', type: 'module', exports: { '.': './src/one.ts' } }));
    // A cycle closed by a type-only import.
    write('services/beta/src/one.ts', "import { two } from './two';\nexport const one = (): number => two();\n");
    write('services/beta/src/two.ts', "import type { one } from './one';\nexport const two = (): number => 2;\nexport type One = typeof one;\n");
    // A library importing a deployable service by name, and by path.
    write('services/beta/src/by-name.ts', "import { alpha } from '@fx/alpha';\nexport const byName = alpha;\n");
    write('services/beta/src/by-path.ts', "import { alpha } from '../../alpha/src/index';\nexport const byPath = alpha;\n");
    // A test may import a deployable service (it starts it).
    write('services/beta/test/alpha.test.ts', "import { alpha } from '@fx/alpha';\nexport const seen = alpha;\n");
    // The root package reaching into a package by path; a test importing scripts/ by path.
    write('scripts/tool.ts', "import { one } from '../services/beta/src/one';\nexport const tool = one;\n");
    write('test/e2e/tool.test.ts', "import { tool } from '../../scripts/tool';\nexport const used = tool;\n");
    mkdirSync(join(root, 'node_modules/@fx'), { recursive: true });
    symlinkSync('../../services/alpha', join(root, 'node_modules/@fx/alpha'), 'dir');
    const tree = { workspaces: ruleWorkspaces(root), deployables: deployableDirs(root) };

    it('finds each broken rule, and only those', async () => {
      expect(tree).toEqual({ workspaces: ['services/alpha', 'services/beta', 'services/registry'], deployables: { alpha: 'services/alpha' } });
      const found = listed(await cruiseTree(root, ['services', 'scripts', 'test'], dependencyRules(tree)));
      expect(found).toEqual([
        'imports-deployable-alpha: services/beta/src/by-name.ts → services/alpha/src/index.ts',
        'imports-deployable-alpha: services/beta/src/by-path.ts → services/alpha/src/index.ts',
        'no-circular: services/beta/src/one.ts → services/beta/src/two.ts (cycle services/beta/src/one.ts → services/beta/src/two.ts → services/beta/src/one.ts)',
        'relative-import-enters-a-package: scripts/tool.ts → services/beta/src/one.ts',
        'relative-import-leaves-its-package: services/beta/src/by-path.ts → services/alpha/src/index.ts',
        'test-imports-scripts-by-path: test/e2e/tool.test.ts → scripts/tool.ts',
      ]);
    });

    it('a named exception excuses only the imports it names', async () => {
      const byName: TemporaryException = { name: 'beta-by-name', rule: 'imports-deployable', from: '^services/beta/src/by-name\\.ts$', deployable: 'alpha', why: 'fixture' };
      const cycle: TemporaryException = { name: 'beta-cycle', rule: 'no-circular', from: '^services/beta/src/(one|two)\\.ts$', why: 'fixture' };
      const found = listed(await cruiseTree(root, ['services', 'scripts', 'test'], dependencyRules({ ...tree, exceptions: [byName, cycle] })));
      expect(found.filter((l) => /^(imports-deployable|no-circular)/.test(l))).toEqual(['imports-deployable-alpha: services/beta/src/by-path.ts → services/alpha/src/index.ts']);
      expect(() => dependencyRules({ ...tree, exceptions: [{ ...byName, deployable: 'gamma' }] })).toThrow(/beta-by-name/);
    });
  });
});
