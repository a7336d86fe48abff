import { ConfigError, loadConfig } from '@evidence-record/platform';
import { IngredientNames, MonitorSettingsSchema, createMonitor, rederiveStates, runOnce, type MonitorSettings } from '@evidence-record/sources';
import { Refused, UsageError, operatorName, optional, type Noun } from '../cli';

/** The monitor's settings from the same environment the service reads (one configuration). */
export function monitorSettings(env: NodeJS.ProcessEnv): MonitorSettings {
  try {
    return loadConfig(MonitorSettingsSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

function productFlag(flags: Parameters<typeof optional>[0]): string | null {
  const productId = optional(flags, 'product') ?? null;
  if (productId !== null && !/^prd_[0-9a-z]{12}$/.test(productId)) throw new UsageError(`${productId} is not a product id`);
  return productId;
}

/** The monitor, run in the CLI's own process through the same leases and code as the service. */
export const monitor: Noun = {
  noun: 'monitor',
  summary: 'perform due source checks now, in this process; re-derive label states from their kept bytes (source monitor)',
  verbs: {
    rederive: {
      usage: '[--product P] [--dry-run] [--by NAME]   (reads every state read from kept DSLD label bytes again under the current rule; decision 1400)',
      run: async ({ pool, flags, env }) => {
        const result = await rederiveStates(pool, new IngredientNames(pool), { by: operatorName({ flags, env }), productId: productFlag(flags), dryRun: flags.flags['dry-run'] === true });
        return { ...result, dry_run: flags.flags['dry-run'] === true };
      },
    },
    'run-once': {
      usage: '[--product P]   (with --product: every source of that product, due or not)',
      run: async ({ pool, flags, env }) => {
        const productId = productFlag(flags);
        const deps = createMonitor(pool, monitorSettings(env), { owner: `admin-cli:${process.pid}` });
        const failures: Array<{ source_id: number; url: string; outcome: string; reason: string | null }> = [];
        let totals;
        try {
          totals = await runOnce(deps, {
            productId,
            onCheck: (src, s) => {
              if (s.outcome !== 'valid') failures.push({ source_id: s.source_id, url: src.url, outcome: s.outcome, reason: s.reason });
            },
          });
        } finally {
          await deps.close();
        }
        // Every check is recorded either way; a run in which a source could not be read says so (docs/monitor.md).
        if (failures.length > 0) {
          const list = failures.map((f) => `source ${f.source_id} (${f.url}): ${f.outcome}, ${f.reason ?? 'no reason given'}`).join('; ');
          throw new Refused('sources_unreadable', `${failures.length} of ${totals.checked} checks did not read their source: ${list}`, { ...totals, failures });
        }
        return { ...totals };
      },
    },
  },
};
