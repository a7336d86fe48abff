import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The docs cite decisions by number and link to each other by relative path.
 * A number two decisions share, or a link to a file that was renamed, sends
 * a reader to the wrong reasoning or to nothing, and nothing else would
 * notice: so both are checked here.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function trackedMarkdown(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.md') && !f.includes('node_modules/'));
}

/** Inline links `[text](target)` whose target is a path in this repository, not a URL or an anchor. */
function relativeLinks(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets: string[] = [];
  for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    targets.push(decodeURI(target.split('#')[0]!));
  }
  return targets;
}

describe('the docs point where they say', () => {
  it('no two decisions share a number', () => {
    const files = readdirSync(resolve(root, 'docs/decisions')).filter((f) => /^\d{4}-/.test(f));
    expect(files.length).toBeGreaterThan(50);
    const byNumber = new Map<string, string[]>();
    for (const f of files) byNumber.set(f.slice(0, 4), [...(byNumber.get(f.slice(0, 4)) ?? []), f]);
    expect([...byNumber.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it("each decision's heading carries its file's number", () => {
    const files = readdirSync(resolve(root, 'docs/decisions')).filter((f) => /^\d{4}-.*\.md$/.test(f));
    const mismatched = files.filter((f) => {
      const heading = readFileSync(resolve(root, 'docs/decisions', f), 'utf8').split('\n', 1)[0]!;
      return !heading.startsWith(`# ${f.slice(0, 4)} `);
    });
    expect(mismatched).toEqual([]);
  });

  it('every relative link in a tracked markdown file names a file or folder that exists', () => {
    const files = trackedMarkdown();
    expect(files.length).toBeGreaterThan(50);
    const broken: string[] = [];
    for (const file of files) {
      for (const target of relativeLinks(readFileSync(resolve(root, file), 'utf8'))) {
        if (target === '') continue;
        const path = target.startsWith('/') ? resolve(root, `.${target}`) : resolve(root, dirname(file), target);
        if (!existsSync(path)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
