import { z } from 'zod';
import { readStackConfig, type StackConfig } from '@evidence-record/platform';
import { configSchema as consoleConfig } from '@evidence-record/console/config';
import { configSchema as gatewayConfig } from '@evidence-record/gateway/config';
import { MonitorSettingsSchema } from '@evidence-record/sources';

/**
 * One configuration for the CLI and the stack it drives. `npm run up` writes
 * every variable it starts the stack with to `<ER_RUN_DIR>/stack.env`
 * (default `.run/stack.env`, derived from the services' config schemas and
 * this one: scripts/registry/stack-env.ts); the CLI reads the same file
 * (@evidence-record/platform's readStackConfig), so a revocation is published
 * under the gateways' Redis prefix, a release to the streams the watch
 * fan-out reads, and a monitor verb reads sources as the monitor service does,
 * with no extra variables. Precedence: the CLI's environment, then the file,
 * then the schema's defaults. In Kubernetes the CLI runs inside the console
 * pod (`kubectl exec`), whose environment is the chart's; no file is there.
 *
 * `configSchema` declares every setting of the code the CLI runs, each with
 * the validation of the service that owns it: the connections (the console's
 * and the gateway's), the monitor's settings (monitor verbs), the trace
 * exporter. A verb that reads any other name fails (see `cliEnv`), so a
 * setting the CLI uses can never be one `up` leaves out of the file.
 */
export const configSchema = z.object({
  DATABASE_URL: consoleConfig.shape.DATABASE_URL.default('postgres://postgres@127.0.0.1:5432/evidence_record'),
  DATABASE_NAMED_STATEMENTS: consoleConfig.shape.DATABASE_NAMED_STATEMENTS,
  REDIS_URL: gatewayConfig.shape.REDIS_URL.default('redis://127.0.0.1:6379'),
  REDIS_MODE: gatewayConfig.shape.REDIS_MODE,
  REDIS_SENTINEL_NAME: gatewayConfig.shape.REDIS_SENTINEL_NAME,
  REDIS_SENTINEL_PASSWORD: gatewayConfig.shape.REDIS_SENTINEL_PASSWORD,
  REDIS_PREFIX: gatewayConfig.shape.REDIS_PREFIX.default('er:local:'),
  NATS_URL: consoleConfig.shape.NATS_URL,
  NATS_PREFIX: consoleConfig.shape.NATS_PREFIX.default('local'),
  NATS_STREAM_REPLICAS: consoleConfig.shape.NATS_STREAM_REPLICAS,
  PUBLIC_BASE_URL: consoleConfig.shape.PUBLIC_BASE_URL,
  OTEL_EXPORTER_OTLP_ENDPOINT: consoleConfig.shape.OTEL_EXPORTER_OTLP_ENDPOINT,
  ...MonitorSettingsSchema.shape,
});
export type CliSetting = keyof typeof configSchema.shape;
export const cliSettings = Object.keys(configSchema.shape) as CliSetting[];

/**
 * What the CLI reads from its own process, never from the stack: who runs it
 * (recorded beside curation actions), and the test clock of `signal release`
 * (NODE_ENV=test with ER_TEST_TODAY).
 */
export const processVariables = ['USER', 'NODE_ENV', 'ER_TEST_TODAY'] as const;

/** A verb read a setting the CLI does not declare: a defect, named so that it is fixed where it belongs. */
export class UndeclaredSetting extends Error {
  override name = 'UndeclaredSetting';
}

const declared = new Set<string>([...cliSettings, ...processVariables]);

/** Each declared setting's default, as the variable's text (what an unset variable means to the code that reads it). */
export const cliDefaults: Readonly<Record<string, string>> = (() => {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { default?: unknown }> };
  const out: Record<string, string> = {};
  for (const [name, property] of Object.entries(schema.properties)) if (property.default !== undefined) out[name] = String(property.default);
  return out;
})();

/**
 * The environment a verb gets: the declared settings, resolved (environment,
 * file, defaults), and the process variables. Reading any other variable name
 * throws UndeclaredSetting, in every verb and every test that runs one.
 */
export function cliEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = {};
  const base = { ...cliDefaults, ...env };
  for (const name of declared) if (base[name] !== undefined) resolved[name] = base[name];
  return new Proxy(resolved, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && /^[A-Z][A-Z0-9_]*$/.test(prop) && !declared.has(prop)) {
        throw new UndeclaredSetting(`the CLI read ${prop}, which its configuration does not declare (scripts/admin/config.ts configSchema); declare it there so that npm run up writes it to the stack file`);
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

export interface ResolvedConfig {
  /** What verbs read (see cliEnv). */
  env: NodeJS.ProcessEnv;
  /** The stack file read, or null (environment and defaults only). */
  file: string | null;
  /** Everything the stack file holds. */
  fromFile: StackConfig['fromFile'];
}

/** The stack's configuration as the CLI sees it (`npm run -s admin` runs in the repository root, where `up` wrote the file). */
export function resolveConfig(processEnv: NodeJS.ProcessEnv = process.env, root = process.cwd()): ResolvedConfig {
  const stack = readStackConfig(processEnv, root);
  return { env: cliEnv(stack.env), file: stack.file, fromFile: stack.fromFile };
}
