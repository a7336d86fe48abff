import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, workspaceDirs } from './generate';

/** Every TypeScript file of the repository (tracked or new), relative to the root. */
function tsFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: repoRoot, encoding: 'utf8' });
  return out.split('\n').filter((f) => f && !f.startsWith('load-tests/'));
}

/** Module specifiers of static imports, re-exports and dynamic imports. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s+(['"])([^'"]+)\1|import\(\s*(['"])([^'"]+)\3\s*\)/g)) found.push(m[2] ?? m[4]!);
  return found;
}

describe('workspace boundaries', () => {
  const packages = workspaceDirs().sort((a, b) => b.length - a.length);
  /** The workspace folder a path belongs to, '' for the root package. */
  const packageOf = (path: string) => packages.find((d) => path === d || path.startsWith(`${d}/`)) ?? '';

  it('no relative import leaves its own package (shared code is imported by package name)', () => {
    const crossing: string[] = [];
    for (const file of tsFiles()) {
      const source = readFileSync(join(repoRoot, file), 'utf8');
      for (const spec of specifiers(source).filter((s) => s.startsWith('.'))) {
        const target = normalize(join(dirname(file), spec));
        if (packageOf(target) !== packageOf(file)) crossing.push(`${file}: ${spec} (${packageOf(file) || 'root'} -> ${packageOf(target) || 'root'})`);
      }
    }
    expect(crossing).toEqual([]);
  });

  it('no test imports anything under scripts/ by path', () => {
    const found: string[] = [];
    for (const file of tsFiles().filter((f) => /(^|\/)test\//.test(f) || f.endsWith('.test.ts'))) {
      if (file.startsWith('scripts/')) continue; // scripts' own tests sit beside what they test
      const source = readFileSync(join(repoRoot, file), 'utf8');
      for (const spec of specifiers(source).filter((s) => s.startsWith('.'))) {
        if (relative(repoRoot, join(repoRoot, dirname(file), spec)).startsWith('scripts/')) found.push(`${file}: ${spec}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('finds a crossing when there is one (the check can fail)', () => {
    expect(specifiers("import { x } from '../../../test/support/db';\nexport { y } from './y';\nawait import('../z');")).toEqual(['../../../test/support/db', './y', '../z']);
    expect(packageOf('services/record/test/x.ts')).toBe('services/record');
    expect(packageOf('test/support/db.ts')).toBe('test/support');
    expect(packageOf('test/e2e/x.ts')).toBe('');
  });
});
