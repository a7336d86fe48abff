import { z } from 'zod';
import { baseEnv, databaseEnv, env, loadConfig } from '@evidence-record/platform';
import { MonitorSettingsFields, deadlineBelowLease } from '@evidence-record/sources';

/** The monitor service's environment: the platform's variables and the monitor settings the CLI shares (docs/monitor.md). */
export const MonitorConfigSchema = z
  .object({
    ...baseEnv,
    PORT: env.port(8110),
    DATABASE_URL: env.databaseUrl,
    ...databaseEnv,
    ...MonitorSettingsFields.shape,
  })
  .superRefine(deadlineBelowLease);
export type MonitorConfig = z.infer<typeof MonitorConfigSchema>;

export function loadMonitorConfig(source: NodeJS.ProcessEnv = process.env): MonitorConfig {
  return loadConfig(MonitorConfigSchema, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { MonitorConfigSchema as configSchema };
