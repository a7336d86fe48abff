import { ConfigError, loadConfig } from '@evidence-record/platform';
import { MonitorSettingsSchema, createMonitor, runOnce, type MonitorSettings } from '@evidence-record/monitor';
import { UsageError, optional, type Noun } from '../cli';

/** The monitor's settings from the same environment the service reads (one configuration). */
export function monitorSettings(env: NodeJS.ProcessEnv): MonitorSettings {
  try {
    return loadConfig(MonitorSettingsSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

/** The monitor, run in the CLI's own process through the same leases and code as the service. */
export const monitor: Noun = {
  noun: 'monitor',
  summary: 'perform due source checks now, in this process (source monitor)',
  verbs: {
    'run-once': {
      usage: '[--product P]   (with --product: every source of that product, due or not)',
      run: async ({ pool, flags, env }) => {
        const productId = optional(flags, 'product') ?? null;
        if (productId !== null && !/^prd_[0-9a-z]{12}$/.test(productId)) throw new UsageError(`${productId} is not a product id`);
        const deps = createMonitor(pool, monitorSettings(env), { owner: `admin-cli:${process.pid}` });
        try {
          return { ...(await runOnce(deps, { productId })) };
        } finally {
          await deps.close();
        }
      },
    },
  },
};
