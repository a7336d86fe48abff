/**
 * The dependency rules of the product code (decision 2051), checked by
 * dependency-cruiser in `npm test` (scripts/registry/dependency-rules.test.ts)
 * and by hand with
 *
 *   npx depcruise --config .dependency-cruiser.mjs services gateway scripts test examples
 *
 * 1. No import cycle, type-only imports included (a cycle of types is still two
 *    modules that cannot be read, or moved, one without the other).
 * 2. No relative import leaves its workspace package, or enters one from the root
 *    package: shared code is imported by package name, as its package.json declares.
 * 3. No test imports anything under scripts/ by path (scripts' own tests sit beside
 *    what they test).
 * 4. No package imports a deployable service (the services of services/registry):
 *    what two packages share is a library. Tests may: they start the services.
 *
 * A rule is broken only by the imports named in `temporaryExceptions`, each with
 * why it is still there and what removes it; the test fails when an
 * exception no longer excuses any import, so each goes when its violation does.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Regular-expression text matching `s` literally. */
const literal = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Test code: a test file, a test folder's support, the test-support package. */
export const TEST_PATHS = ['(^|/)test/', '\\.test\\.ts$', '\\.check\\.ts$'];

/**
 * Imports that still break a rule, each until the change named removes it. `from`
 * is a path pattern of the importing files; `rule` is 'no-circular' (the files'
 * imports may close a cycle) or 'imports-deployable' (they may import the
 * deployable service `deployable`).
 */
export const temporaryExceptions = [
  {
    name: 'curation-imports-record-for-normalizeName',
    rule: 'imports-deployable',
    from: '^services/curation/src/(catalogue|identity-rules|ingredient-identity)\\.ts$',
    deployable: 'record',
    why: 'normalizeName moves to the record-store library (issue 27 item 1, h27a)',
  },
  {
    name: 'sources-imports-record-for-normalizeName',
    rule: 'imports-deployable',
    from: '^services/sources/src/label-versions\\.ts$',
    deployable: 'record',
    why: 'normalizeName moves to the record-store library (issue 27 item 1, h27a)',
  },
  {
    name: 'demo-record-imports-record',
    rule: 'imports-deployable',
    from: '^scripts/demo-record/build\\.ts$',
    deployable: 'record',
    why: "the demo Record's builder reads the record service's queries; they move to the record-store library (issue 27 item 1, h27a)",
  },
  {
    name: 'console-imports-signals-for-publishNow',
    rule: 'imports-deployable',
    from: '^services/console/src/pages/(release|signals)\\.ts$',
    deployable: 'signals',
    why: 'publishNow and release-then-publish move to curation (issue 27 item 1, h27a)',
  },
  {
    name: 'admin-imports-signals-for-publishNow',
    rule: 'imports-deployable',
    from: '^scripts/admin/nouns/(signal|outbox)\\.ts$',
    deployable: 'signals',
    why: 'publishNow and release-then-publish move to curation (issue 27 item 1, h27a)',
  },
  {
    name: 'admin-imports-gateway-for-keys-and-config',
    rule: 'imports-deployable',
    from: '^scripts/admin/(config|nouns/(account|key|org))\\.ts$',
    deployable: 'gateway',
    why: "key, account and organisation management (gateway/src/operator.ts) and the gateway's settings schema: not yet a library",
  },
  {
    name: 'admin-imports-console-for-operators-and-config',
    rule: 'imports-deployable',
    from: '^scripts/admin/(config|nouns/operator)\\.ts$',
    deployable: 'console',
    why: "console operator accounts and the console's settings schema: not yet a library",
  },
  {
    name: 'admin-imports-email-worker-for-alerts',
    rule: 'imports-deployable',
    from: '^scripts/admin/nouns/alert\\.ts$',
    deployable: 'email-worker',
    why: "alert preview and re-send through the email worker's composer: not yet a library",
  },
];

/** The workspace folders package.json names (as scripts/registry/generate.ts reads them). */
export function workspaceDirs(root = here) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = [];
  for (const pattern of pkg.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      for (const d of readdirSync(join(root, parent)).sort()) {
        const dir = join(root, parent, d);
        if (statSync(dir).isDirectory() && existsSync(join(dir, 'package.json'))) dirs.push(relative(root, dir));
      }
    } else dirs.push(pattern);
  }
  return dirs;
}

/** The deployable services, by name, each with its workspace folder (the one holding its entry). */
export function deployableDirs(root = here, registryFile = 'services/registry/registry.json') {
  const { services } = JSON.parse(readFileSync(join(root, registryFile), 'utf8'));
  const dirs = workspaceDirs(root).sort((a, b) => b.length - a.length);
  return Object.fromEntries(
    services.map((s) => {
      const dir = dirs.find((d) => s.entry.startsWith(`${d}/`));
      if (!dir) throw new Error(`deployable ${s.name}: its entry ${s.entry} is in no workspace`);
      return [s.name, dir];
    }),
  );
}

/** The rules, for a tree's workspaces and deployables (the repository's, or a test's fixture tree). */
export function dependencyRules({ workspaces, deployables, exceptions = [] }) {
  const unknown = exceptions.filter((e) => (e.rule === 'imports-deployable' ? !(e.deployable in deployables) : e.rule !== 'no-circular'));
  if (unknown.length > 0) throw new Error(`exceptions naming no rule or no deployable: ${unknown.map((e) => e.name).join(', ')}`);
  const cycles = exceptions.filter((e) => e.rule === 'no-circular').map((e) => e.from);
  const packages = `(${workspaces.map(literal).join('|')})`;
  return [
    {
      name: 'no-circular',
      comment: 'An import cycle (type-only imports included): break it by moving what both sides need into a module of its own.',
      severity: 'error',
      from: cycles.length > 0 ? { pathNot: cycles } : {},
      to: { circular: true },
    },
    {
      name: 'relative-import-leaves-its-package',
      comment: 'A relative import reaches into another workspace package: import it by package name (declared in package.json).',
      severity: 'error',
      from: { path: `^${packages}/` },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased'], pathNot: ['^$1/', 'node_modules/'] },
    },
    {
      name: 'relative-import-enters-a-package',
      comment: 'The root package reaches into a workspace package by path: import it by package name.',
      severity: 'error',
      from: { pathNot: `^${packages}/` },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased'], path: `^${packages}/` },
    },
    {
      name: 'test-imports-scripts-by-path',
      comment: 'A test outside scripts/ imports something under scripts/ by path.',
      severity: 'error',
      from: { path: TEST_PATHS, pathNot: '^scripts/' },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased'], path: '^scripts/' },
    },
    ...Object.entries(deployables).map(([name, dir]) => ({
      name: `imports-deployable-${name}`,
      comment: `A package imports the deployable service ${name} (${dir}): what they share belongs in a library package.`,
      severity: 'error',
      from: { pathNot: [`^${literal(dir)}/`, ...TEST_PATHS, ...exceptions.filter((e) => e.rule === 'imports-deployable' && e.deployable === name).map((e) => e.from)] },
      to: { path: `^${literal(dir)}/` },
    })),
  ];
}

/** How dependency-cruiser reads this repository (TypeScript, extensionless imports, package exports). */
export const cruiseOptions = {
  doNotFollow: { path: 'node_modules' },
  exclude: { path: ['node_modules', '(^|/)dist/', '^load-tests/', '/fixtures/'] },
  // Type-only imports are dependencies too.
  tsPreCompilationDeps: true,
  tsConfig: { fileName: 'tsconfig.json' },
  enhancedResolveOptions: {
    exportsFields: ['exports'],
    conditionNames: ['import', 'require', 'node', 'default', 'types'],
    extensions: ['.ts', '.mts', '.js', '.mjs', '.json', '.d.ts'],
    mainFields: ['module', 'main', 'types'],
  },
  moduleSystems: ['es6', 'cjs'],
  skipAnalysisNotInRules: true,
};

export default {
  forbidden: dependencyRules({ workspaces: workspaceDirs(), deployables: deployableDirs(), exceptions: temporaryExceptions }),
  options: cruiseOptions,
};
