import { z } from 'zod';
import { databaseEnv, env, loadConfig, readStackConfig } from '@evidence-record/platform';
import { MonitorSettingsSchema } from '@evidence-record/sources';

/** The demo source server's port in the local stack (`npm run up`); ER_PORT_OFFSET shifts it like every other port. */
export const DEFAULT_DEMO_SOURCES_PORT = 8190;

/**
 * What the demo source tool reads: its port, the Record, and the monitor's
 * settings (it registers the demo sources and reads them once, as the monitor
 * would). Run by hand (`npm run -s demo-sources -- change label`), it reads
 * them from the stack's one configuration, like the operator CLI.
 */
export const configSchema = z.object({
  DEMO_SOURCES_PORT: env.port(DEFAULT_DEMO_SOURCES_PORT),
  DATABASE_URL: env.databaseUrl.default('postgres://postgres@127.0.0.1:5432/evidence_record'),
  ...databaseEnv,
  ...MonitorSettingsSchema.shape,
});
export type DemoSourcesConfig = z.output<typeof configSchema>;

export function loadDemoSourcesConfig(source: NodeJS.ProcessEnv = readStackConfig().env): DemoSourcesConfig {
  return loadConfig(configSchema, source);
}
