import { z } from 'zod';
import { registrySource } from './registry';

/**
 * The deployable services, declared once in ./registry.ts. Everything that
 * needs the list (build, local/test/benchmark stacks, chart, Dockerfile)
 * reads it, its JSON twin or something generated from it, so a new service is
 * its folder, one entry there and one values block in the chart.
 */

const serviceName = z.string().regex(/^[a-z][a-z0-9-]*[a-z0-9]$/, 'lower-case words joined by "-"');

/** External dependencies a service uses; each one means env vars (and, in the chart, egress). */
const Needs = z.strictObject({
  /** DATABASE_URL (Postgres, the shared Record) and DATABASE_NAMED_STATEMENTS (off behind a pooler that cannot keep them, decision 2320). */
  database: z.boolean().optional(),
  /**
   * DATABASE_READ_URL (optional): a read replica for the reads of a snapshot, which only the capabilities that
   * never read what they just wrote may use (record, signals, ledger; issue 24). In the chart: the replica's
   * host, secret and egress.
   */
  databaseRead: z.boolean().optional(),
  /** REDIS_URL, REDIS_PREFIX and REDIS_MODE (with REDIS_SENTINEL_NAME for Sentinels; decision 2300). */
  redis: z.boolean().optional(),
  /** NATS_URL (one server or a cluster's), NATS_PREFIX and NATS_STREAM_REPLICAS. */
  nats: z.boolean().optional(),
  /** SMTP_URL and MAIL_FROM. */
  smtp: z.boolean().optional(),
  /** CURSOR_SECRET (signs list cursors). */
  cursorSecret: z.boolean().optional(),
  /**
   * Internal request signing (decision 0313), one key set per verifying service: `verify` gets its own
   * `<NAME>_SIGNING_KEYS` and accepts only requests signed with it; `sign` (the gateway) gets the keys of every
   * service it calls that verifies, and of no other.
   */
  internalSigning: z.enum(['sign', 'verify']).optional(),
  /** UNSUBSCRIBE_SIGNING_KEY: signs (the email worker) or verifies (the gateway, which also reads the previous key of a rotation) the one-click unsubscribe links of alert emails. */
  unsubscribeKey: z.enum(['sign', 'verify']).optional(),
  /** CONSOLE_SESSION_SECRET: signs the review console's session cookies (a Secret, never the database). */
  consoleSessionSecret: z.boolean().optional(),
  /** PUBLIC_BASE_URL, the address clients see. */
  publicBaseUrl: z.boolean().optional(),
  /** Reaches public HTTP(S) sites (in the chart: egress to networkPolicy.egress.internet, private ranges excepted). */
  internet: z.boolean().optional(),
});
export type Needs = z.infer<typeof Needs>;

export const ServiceEntry = z
  .strictObject({
    name: serviceName,
    /** TypeScript entry point, bundled by scripts/build.mjs into dist/<name>.mjs. */
    entry: z.string().regex(/^[\w./-]+\.ts$/),
    /**
     * True: the service answers HTTP on `port` (/healthz, /readyz, /metrics at least);
     * launchers wait for /readyz, the chart gives it a Service and HTTP probes.
     * False: a worker without a port; it is "started" when its process is up.
     */
    http: z.boolean(),
    /** Its port in the local stack (`npm run up`) and in the chart; test stacks pick free ports instead. */
    port: z.number().int().min(1024).max(65535).optional(),
    /** Reachable from outside the release (only the gateway): the Ingress and its NetworkPolicy. */
    public: z.boolean().optional(),
    needs: Needs.optional(),
    /** Services it calls over HTTP: it gets <NAME>_URL for each, and egress to them in the chart. */
    calls: z.array(serviceName).optional(),
    /** Services that must answer /readyz before it starts (when they run at all). */
    startsAfter: z.array(serviceName).optional(),
  })
  .refine((s) => s.http === (s.port !== undefined), { message: 'a port exactly when http is true' });
export type ServiceEntry = z.infer<typeof ServiceEntry>;

export const Registry = z
  .strictObject({
    services: z.array(ServiceEntry).min(1),
    /** Command-line bundles built next to the services (dist/<name>.mjs), not deployed as services. */
    tools: z.record(serviceName, z.string().regex(/^[\w./-]+\.ts$/)),
  })
  .superRefine((r, ctx) => {
    const names = new Set<string>();
    const ports = new Set<number>();
    for (const s of r.services) {
      if (names.has(s.name)) ctx.addIssue({ code: 'custom', message: `service ${s.name} declared twice` });
      names.add(s.name);
      if (s.port !== undefined && ports.has(s.port)) ctx.addIssue({ code: 'custom', message: `port ${s.port} used twice` });
      if (s.port !== undefined) ports.add(s.port);
      if (s.name in r.tools) ctx.addIssue({ code: 'custom', message: `${s.name} is both a service and a tool` });
    }
    for (const s of r.services) {
      for (const other of [...(s.calls ?? []), ...(s.startsAfter ?? [])]) {
        if (!names.has(other)) ctx.addIssue({ code: 'custom', message: `${s.name} refers to unknown service ${other}` });
      }
      for (const callee of s.calls ?? []) {
        if (!r.services.find((x) => x.name === callee)?.http) ctx.addIssue({ code: 'custom', message: `${s.name} calls ${callee}, which serves no HTTP` });
      }
      if (s.needs?.internalSigning === 'verify' && !r.services.some((x) => x.needs?.internalSigning === 'sign' && x.calls?.includes(s.name))) {
        ctx.addIssue({ code: 'custom', message: `${s.name} verifies signed requests, but no signing service calls it` });
      }
    }
  });
export type Registry = z.infer<typeof Registry>;

/** The name of a registered service (a literal union, so `ports.gateway` is known to exist). */
export type ServiceName = (typeof registrySource.services)[number]['name'];
export type RegisteredService = ServiceEntry & { name: ServiceName };

export const registry: Registry = Registry.parse(registrySource);
export const services = registry.services as readonly RegisteredService[];
export const serviceNames: readonly ServiceName[] = services.map((s) => s.name);

export function isServiceName(name: string): name is ServiceName {
  return (serviceNames as readonly string[]).includes(name);
}

export function service(name: string): RegisteredService {
  const s = services.find((x) => x.name === name);
  if (!s) throw new Error(`unknown service ${name}; the registry has ${serviceNames.join(', ')}`);
  return s;
}

/** The env var that carries a service's base URL to its callers: `email-worker` → `EMAIL_WORKER_URL`. */
export function urlEnvName(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_URL`;
}

/** The env var that carries the keys of signed requests to a service (decision 0313): `record` → `RECORD_SIGNING_KEYS`. */
export function signingKeysEnvName(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_SIGNING_KEYS`;
}

/** Services that accept only signed requests, each with keys of its own. */
export function verifyingServices(all: readonly ServiceEntry[] = services): string[] {
  return all.filter((s) => s.needs?.internalSigning === 'verify').map((s) => s.name);
}

/** Whose signing keys a service holds: its own when it verifies; the signer's, every service it calls that verifies. */
export function signingKeysOf(s: ServiceEntry, all: readonly ServiceEntry[] = services): string[] {
  if (s.needs?.internalSigning === 'verify') return [s.name];
  if (s.needs?.internalSigning !== 'sign') return [];
  const verifying = verifyingServices(all);
  return (s.calls ?? []).filter((c) => verifying.includes(c));
}

/** The variables each need stands for (the names of Needs' comments above): what a service with that need reads. */
export const needVariables: { readonly [K in keyof Needs]-?: readonly string[] } = {
  database: ['DATABASE_URL', 'DATABASE_NAMED_STATEMENTS'],
  databaseRead: ['DATABASE_READ_URL'],
  redis: ['REDIS_URL', 'REDIS_PREFIX', 'REDIS_MODE', 'REDIS_SENTINEL_NAME'],
  nats: ['NATS_URL', 'NATS_PREFIX', 'NATS_STREAM_REPLICAS'],
  smtp: ['SMTP_URL', 'MAIL_FROM'],
  cursorSecret: ['CURSOR_SECRET'],
  // Per service (variablesOf): a verifying service reads its own <NAME>_SIGNING_KEYS, the signer those of its callees.
  internalSigning: [],
  unsubscribeKey: ['UNSUBSCRIBE_SIGNING_KEY'],
  consoleSessionSecret: ['CONSOLE_SESSION_SECRET'],
  publicBaseUrl: ['PUBLIC_BASE_URL'],
  internet: [],
};

/** The variables a service reads because of its needs and calls (<NAME>_URL of each service it calls). */
export function variablesOf(s: ServiceEntry): string[] {
  const needs = Object.entries(s.needs ?? {}).flatMap(([need, on]) => (on ? needVariables[need as keyof Needs] : []));
  return [...needs, ...signingKeysOf(s).map(signingKeysEnvName), ...(s.calls ?? []).map(urlEnvName)];
}

/** Services that call `name` (derived from every entry's `calls`). */
export function callersOf(name: string, all: readonly ServiceEntry[] = services): string[] {
  return all.filter((s) => s.calls?.includes(name)).map((s) => s.name);
}

/**
 * The chosen services in start waves: each wave starts together once every
 * service of the waves before it answers /readyz. `startsAfter` entries that
 * are not chosen are ignored (a test may run the record service alone).
 */
export function startWaves(chosen: readonly string[], all: readonly ServiceEntry[] = services): string[][] {
  const left = new Set(chosen);
  for (const n of left) if (!all.some((s) => s.name === n)) throw new Error(`unknown service ${n}`);
  const waves: string[][] = [];
  const started = new Set<string>();
  while (left.size > 0) {
    const wave = all
      .filter((s) => left.has(s.name) && (s.startsAfter ?? []).every((d) => started.has(d) || !chosen.includes(d)))
      .map((s) => s.name);
    if (wave.length === 0) throw new Error(`startsAfter forms a cycle among ${[...left].join(', ')}`);
    for (const n of wave) {
      left.delete(n);
      started.add(n);
    }
    waves.push(wave);
  }
  return waves;
}
