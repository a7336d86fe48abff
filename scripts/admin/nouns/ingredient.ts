import { addIngredient, aliasIngredient, applyIngredientCatalogue, listIngredients, listUnidentified } from '@evidence-record/curation';
import { UsageError, list, operatorName, optional, required, type Flags, type Noun } from '../cli';

/** Every value of a repeatable flag, each a real value (`--group` alone is a usage error). */
function values(flags: Flags, name: string): string[] {
  if (flags.flags[name] === true) throw new UsageError(`--${name} needs a value`);
  return list(flags, name);
}

/**
 * Ingredient identity (decision 1500, docs/curation.md): what a declared line
 * is identified as. Each change is one new record version and reaches every
 * line already read; none is ever a Signal.
 */
export const ingredient: Noun = {
  noun: 'ingredient',
  summary: 'canonical ingredients and their identifiers: add, alias, list (and the names the Record could not identify)',
  verbs: {
    add: {
      usage: '--name N [--unii U]… [--group G]… [--alias A]… [--kind K] [--by WHO]   → {"ingredient_id", "name", "names", "uniis", "groups", "lines_reidentified", "record_version"}',
      run: async (ctx) => {
        const { pool, flags } = ctx;
        return {
          ...(await addIngredient(pool, {
            name: required(flags, 'name'),
            uniis: values(flags, 'unii'),
            groups: values(flags, 'group'),
            aliases: values(flags, 'alias'),
            ...(optional(flags, 'kind') ? { kind: optional(flags, 'kind') } : {}),
            by: operatorName(ctx),
          })),
        };
      },
    },
    alias: {
      usage: '--ingredient I [--name "…"]… [--unii U]… [--group G]… [--by WHO]   (refused with identity_conflict if one already identifies another ingredient)',
      run: async (ctx) => {
        const { pool, flags } = ctx;
        const names = values(flags, 'name');
        const uniis = values(flags, 'unii');
        const groups = values(flags, 'group');
        if (names.length + uniis.length + groups.length === 0) throw new UsageError('give --name, --unii or --group');
        return { ...(await aliasIngredient(pool, { ingredient_id: required(flags, 'ingredient'), names, uniis, groups, by: operatorName(ctx) })) };
      },
    },
    list: {
      usage: '[--unidentified [--limit N]]   → {"ingredients": […]}, or {"names": [{"declared_name", "count", "products", "suggestions"}]}',
      run: async ({ pool, flags }) => {
        if (flags.flags.unidentified === undefined) return { ingredients: await listIngredients(pool) };
        const limit = optional(flags, 'limit');
        if (limit !== undefined && !/^[1-9]\d{0,5}$/.test(limit)) throw new UsageError('--limit is a positive integer');
        return { names: await listUnidentified(pool, limit ? { limit: Number(limit) } : {}) };
      },
    },
    catalogue: {
      usage: '   (applies the ingredient catalogue the Record ships, as migrate does; adds only) → {"ingredients_added", …, "record_version"}',
      run: async ({ pool }) => ({ ...(await applyIngredientCatalogue(pool, 'admin')) }),
    },
  },
};
