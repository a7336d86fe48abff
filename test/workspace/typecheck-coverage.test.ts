import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * `npm test` type-checks two programs: tsconfig.json (services, gateway,
 * scripts, tests, benches) and load-tests/tsconfig.json (the k6 scripts).
 * Every TypeScript file the repository tracks must be in one of them, so a
 * new folder cannot slip outside the type-check unnoticed.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function programFiles(configPath: string): Set<string> {
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  return new Set(parsed.fileNames.map((f) => resolve(f)));
}

describe('the type-check covers the repository', () => {
  it('every tracked .ts file is in tsconfig.json or load-tests/tsconfig.json', () => {
    const covered = new Set([...programFiles(resolve(root, 'tsconfig.json')), ...programFiles(resolve(root, 'load-tests/tsconfig.json'))]);
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'))
      .map((f) => resolve(root, f));
    expect(tracked.length).toBeGreaterThan(100);
    expect(tracked.filter((f) => !covered.has(f)).map((f) => f.slice(root.length + 1))).toEqual([]);
  });
});
