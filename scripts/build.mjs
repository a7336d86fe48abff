// Bundles each entrypoint into dist/<name>.mjs with esbuild. Workspace packages
// (TypeScript sources) are bundled in; third-party packages stay external and
// are installed in the image with `npm ci --omit=dev`.
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';

const entries = {
  gateway: 'gateway/src/main.ts',
  record: 'services/record/src/main.ts',
  signals: 'services/signals/src/main.ts',
  ledger: 'services/ledger/src/main.ts',
  watch: 'services/watch/src/main.ts',
  mcp: 'services/mcp/src/main.ts',
  'email-worker': 'services/email-worker/src/main.ts',
  admin: 'scripts/admin/main.ts',
  migrate: 'scripts/migrate.ts',
  'seed-demo': 'scripts/seed-demo.ts',
};

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
