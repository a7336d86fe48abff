import { addProduct, addProductIn, retireProduct, AddProductInput, CurationRefused } from '@evidence-record/curation';
import { withRecordChange } from '@evidence-record/platform';
import { addSource, createMonitor, dropDsldKeyOffOrigin, parseDsldLabel, policyOf, withDsldKey } from '@evidence-record/monitor';
import { UsageError, optional, positional, required, type Flags, type Noun } from '../cli';
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
      usage: '--label ID [--every 7d]   (reads the label once, registers brand, name and aliases, and adds the label as its first source)',
      run: async ({ pool, flags, env }) => {
        const id = required(flags, 'label');
        if (!/^\d{1,12}$/.test(id)) throw new UsageError(`${id} is not a DSLD label id`);
        const settings = monitorSettings(env);
        const url = `${settings.DSLD_BASE_URL.replace(/\/+$/, '')}/label/${id}`;
        const monitor = createMonitor(pool, settings);
        try {
          const res = await monitor.fetcher.get(withDsldKey(settings, url), { beforeRedirect: async (next) => dropDsldKeyOffOrigin(settings, next) });
          if (res.status !== 200) throw new CurationRefused(`DSLD answered ${res.status} for label ${id}`, res.status === 404 ? 'not_found' : 'source_unreadable');
          const parsed = parseDsldLabel(res.body.toString('utf8'));
          if (!parsed.ok) throw new CurationRefused(`label ${id}: ${parsed.reason}`, 'source_unreadable');
          const { brand, name } = parsed.reading;
          if (!brand || !name) throw new CurationRefused(`label ${id} names no brand or product`, 'source_unreadable');
          const full = AddProductInput.parse({ brand, name: name.replace(new RegExp(`^${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+`, 'i'), '') || name, aliases: name !== brand ? [name] : [] });
          const { result } = await withRecordChange(pool, `product added from DSLD label ${id}`, (client) => addProductIn(client, full));
          const source = await addSource(pool, { product_id: result.product_id, kind: 'dsld_label', url, every: optional(flags, 'every') ?? '7d', added_by: 'operator' }, policyOf(settings));
          return { product_id: result.product_id, brand_id: result.brand_id, name: result.name, depth_class: result.depth_class, source_id: source.source_id, next_check_due: source.next_check_due };
        } finally {
          await monitor.close();
        }
      },
    },
  },
};
