// Bundles each service and tool of the registry into dist/<name>.mjs with esbuild. Workspace packages
// (TypeScript sources) are bundled in; third-party packages stay external and
// are installed in the image with `npm ci --omit=dev`.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

// The services and command-line tools come from the registry's JSON twin (services/registry/registry.json).
const registry = JSON.parse(readFileSync('services/registry/registry.json', 'utf8'));
const entries = Object.fromEntries([...registry.services.map((s) => [s.name, s.entry]), ...Object.entries(registry.tools)]);

const externalThirdParty = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@evidence-record/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
const started = Date.now();
await build({
  entryPoints: entries,
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalThirdParty],
});
cpSync('services/platform/migrations', 'dist/migrations', { recursive: true });
console.log(JSON.stringify({ built: Object.keys(entries), ms: Date.now() - started }));
