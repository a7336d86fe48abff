// Bundles each service and tool of the registry into dist/<name>.mjs with esbuild. Workspace packages
// (TypeScript sources) are bundled in; third-party packages stay external and
// are installed in the image with `npm ci --omit=dev`, except those installed
// inside a workspace (see externalThirdParty).
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

// The services and command-line tools come from the registry's JSON twin (services/registry/registry.json).
const registry = JSON.parse(readFileSync('services/registry/registry.json', 'utf8'));
const entries = Object.fromEntries([...registry.services.map((s) => [s.name, s.entry]), ...Object.entries(registry.tools)]);

const rootModules = path.resolve('node_modules') + path.sep;

/**
 * Third-party packages stay external when the importer resolves them to the
 * root node_modules, where dist/*.mjs finds them at run time. A package npm
 * installed inside a workspace instead (services/<x>/node_modules: that
 * workspace needs another version than the root holds) is bundled: from dist/
 * node would find the root's version, or none at all once dev packages are
 * omitted (the image check found htmlparser2 so).
 */
const externalThirdParty = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@evidence-record/') || args.pluginData?.resolving) return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { resolving: true } });
      if (found.errors.length > 0 || found.external || found.path.startsWith(rootModules) || !found.path.includes(`${path.sep}node_modules${path.sep}`)) {
        return { path: args.path, external: true };
      }
      return found;
    });
  },
};

// `--outdir <dir>`: somewhere else than dist/ (a test run's own bundles, test/global-setup.ts); under the
// repository, so the bundles find the root node_modules as dist/ does.
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? process.argv[outdirFlag + 1] : 'dist';
if (!outdir || path.relative(process.cwd(), path.resolve(outdir)).startsWith('..')) throw new Error('--outdir takes a folder inside the repository');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const started = Date.now();
await build({
  entryPoints: entries,
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS packages may require() Node's own modules; ESM output has no require of its own.
  banner: { js: "import { createRequire as __erCreateRequire } from 'node:module'; const require = __erCreateRequire(import.meta.url);" },
  plugins: [externalThirdParty],
});
cpSync('services/record-store/migrations', path.join(outdir, 'migrations'), { recursive: true });
console.log(JSON.stringify({ built: Object.keys(entries), ms: Date.now() - started }));
