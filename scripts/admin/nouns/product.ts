import { addProduct, retireProduct } from '@evidence-record/curation';
import { attachDsldLabel, createMonitor, policyOf } from '@evidence-record/sources';
import { UsageError, operatorName, optional, positional, required, type Flags, type Noun } from '../cli';
import { monitorSettings } from './monitor';

/** Every value of a repeatable flag (--alias A --alias B). */
function repeated(argv: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) if (argv[i] === `--${name}` && argv[i + 1] && !argv[i + 1]!.startsWith('--')) out.push(argv[i + 1]!);
  return out;
}

function aliases(flags: Flags): string[] {
  const one = flags.flags.alias;
  if (one === undefined) return [];
  if (one === true) throw new UsageError('--alias needs a value');
  // parseFlags keeps the last of repeated flags; the command line has them all.
  const all = repeated(process.argv, 'alias');
  return all.includes(one) ? all : [one];
}

/** Products: the covered set grows by an operator registering products (decision 1001). */
export const product: Noun = {
  noun: 'product',
  summary: 'register, retire, or register from a DSLD label a product of the Record (source monitor)',
  verbs: {
    add: {
      usage: '--brand B --name N [--alias A]… [--category pre-workout] [--form powder|capsule|ready_to_drink]',
      run: async ({ pool, flags }) => {
        const out = await addProduct(pool, {
          brand: required(flags, 'brand'),
          name: required(flags, 'name'),
          aliases: aliases(flags),
          ...(optional(flags, 'category') ? { category: optional(flags, 'category') as 'pre-workout' } : {}),
          ...(optional(flags, 'form') ? { form: optional(flags, 'form') as 'powder' } : {}),
        });
        return { product_id: out.product_id, brand_id: out.brand_id, name: out.name, depth_class: out.depth_class, record_version: out.record_version };
      },
    },
    retire: {
      usage: '<product_id> [--on YYYY-MM-DD] [--note TEXT]   (the id stays; answers say the product is retired)',
      run: async ({ pool, flags }) =>
        retireProduct(pool, { product_id: positional(flags, 0, 'product_id'), on: optional(flags, 'on') ?? new Date().toISOString().slice(0, 10), note: optional(flags, 'note') ?? null }),
    },
    'add-from-dsld': {
      usage:
        '--label ID [--product P] [--every 7d] [--by NAME]   (reads the label once and attaches it, dated by its DSLD date, to the product it belongs to: ' +
        'P, else the product DSLD relates it to ("same product"), else the one of the same brand and name, else a product registered from it; decision 1401)',
      run: async ({ pool, flags, env }) => {
        const id = required(flags, 'label');
        if (!/^\d{1,12}$/.test(id)) throw new UsageError(`${id} is not a DSLD label id`);
        const settings = monitorSettings(env);
        const monitor = createMonitor(pool, settings);
        try {
          return {
            ...(await attachDsldLabel(
              { pool, fetcher: monitor.fetcher, names: monitor.names, settings, policy: policyOf(settings) },
              { label: id, product_id: optional(flags, 'product') ?? null, every: optional(flags, 'every') ?? '7d', by: operatorName({ flags, env }) },
            )),
          };
        } finally {
          await monitor.close();
        }
      },
    },
  },
};
