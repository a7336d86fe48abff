/**
 * Every deployable service, declared once. Fields: ./index.ts (the zod schema).
 *
 * Read through @evidence-record/registry by the test and benchmark stacks and
 * scripts/registry/*; through its JSON twin ../registry.json (written by
 * `npx tsx scripts/registry/generate.ts`, which also writes the Dockerfile's
 * manifests stage and the chart's _registry.tpl) by scripts/build.mjs,
 * scripts/chart/assert-rendered.mjs and, via scripts/stack.env.sh, `npm run up`.
 * Adding a service: README, "Adding a service".
 */
export const registrySource = {
  services: [
    {
      name: 'record',
      entry: 'services/record/src/main.ts',
      http: true,
      port: 8101,
      needs: { database: true, databaseRead: true, internalSigning: 'verify' },
    },
    {
      name: 'signals',
      entry: 'services/signals/src/main.ts',
      http: true,
      port: 8102,
      needs: { database: true, databaseRead: true, nats: true, cursorSecret: true, publicBaseUrl: true, internalSigning: 'verify' },
    },
    {
      name: 'ledger',
      entry: 'services/ledger/src/main.ts',
      http: true,
      port: 8103,
      needs: { database: true, databaseRead: true, internalSigning: 'verify' },
    },
    {
      name: 'watch',
      entry: 'services/watch/src/main.ts',
      http: true,
      port: 8104,
      needs: { database: true, nats: true, internalSigning: 'verify' },
    },
    {
      name: 'email-worker',
      entry: 'services/email-worker/src/main.ts',
      http: true,
      port: 8106,
      needs: { database: true, nats: true, smtp: true, publicBaseUrl: true, unsubscribeKey: 'sign' },
    },
    {
      name: 'gateway',
      entry: 'gateway/src/main.ts',
      http: true,
      port: 8080,
      public: true,
      needs: { database: true, redis: true, publicBaseUrl: true, unsubscribeKey: 'verify', internalSigning: 'sign' },
      calls: ['record', 'signals', 'ledger', 'watch', 'mcp'],
      startsAfter: ['record', 'signals', 'ledger', 'watch', 'email-worker'],
    },
    {
      // The review console for curators: never public (no Ingress). Its pod carries the stack's configuration,
      // so `kubectl exec deploy/<release>-console -- node dist/admin.mjs …` acts on the running stack.
      name: 'console',
      entry: 'services/console/src/main.ts',
      http: true,
      port: 8107,
      needs: { database: true, redis: true, nats: true, publicBaseUrl: true, consoleSessionSecret: true },
    },
    {
      name: 'mcp',
      entry: 'services/mcp/src/main.ts',
      http: true,
      port: 8105,
      needs: { internalSigning: 'verify' },
      calls: ['gateway'],
      startsAfter: ['gateway'],
    },
    {
      // The source monitor: reads DSLD labels and retailer offer pages (docs/monitor.md).
      name: 'monitor',
      entry: 'services/monitor/src/main.ts',
      http: true,
      port: 8110,
      needs: { database: true, internet: true },
    },
  ],
  tools: {
    admin: 'scripts/admin/main.ts',
    migrate: 'scripts/migrate.ts',
    'seed-demo': 'scripts/seed-demo.ts',
    // The local stack's demo source server (`npm run up`) and the monitor benchmark's fixture server.
    'demo-sources': 'services/demo-sources/src/main.ts',
  },
} as const;
