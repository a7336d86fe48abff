import { addContext, contextKindOf, correctContext, listContext, retireContext, type ContextFields, type ContextKind } from '@evidence-record/curation';
import { UsageError, operatorName, optional, positional, required, type Flags, type Noun } from '../cli';

/**
 * Research context and regulatory records of an ingredient, curated from the
 * CLI (decision 1601): `research add|correct|retire|list` and `regulatory
 * add|correct|retire|list`. The rules live in the curation library, which the
 * review console uses too.
 */

/** A number flag, or null when given empty ("--range-low ''" clears it on a correction). */
function numberFlag(flags: Flags, name: string): number | null | undefined {
  const v = flags.flags[name];
  if (v === undefined) return undefined;
  if (v === true) throw new UsageError(`--${name} needs a number`);
  if (v.trim() === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} is a number, not ${v}`);
  return n;
}

/** A text flag; an empty value clears an optional field on a correction. */
function textFlag(flags: Flags, name: string): string | undefined {
  const v = flags.flags[name];
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

function cautionFlag(flags: Flags, kind: ContextKind, correcting: boolean): boolean | undefined {
  const v = flags.flags.caution;
  if (v === undefined) return undefined;
  if (kind === 'research') throw new UsageError('--caution is for regulatory records: a documented caution is an authority\'s own (regulatory add --caution)');
  if (v === true && !correcting) return true;
  if (v === 'yes' || v === 'no') return v === 'yes';
  throw new UsageError(correcting ? '--caution is yes or no on a correction' : '--caution takes no value on add (or yes|no)');
}

function fields(flags: Flags, kind: ContextKind, correcting: boolean): ContextFields {
  const f: ContextFields = {
    authority: textFlag(flags, 'authority'),
    kind: textFlag(flags, 'kind'),
    date: textFlag(flags, 'date'),
    title: textFlag(flags, 'title'),
    what: textFlag(flags, 'what'),
    url: textFlag(flags, 'url'),
    caution: cautionFlag(flags, kind, correcting),
  };
  if (kind === 'research') {
    Object.assign(f, {
      range_low: numberFlag(flags, 'range-low'),
      range_high: numberFlag(flags, 'range-high'),
      range_unit: emptyIsNull(textFlag(flags, 'range-unit')),
      range_basis: emptyIsNull(textFlag(flags, 'range-basis')),
      population: emptyIsNull(textFlag(flags, 'population')),
    });
  } else {
    for (const name of ['range-low', 'range-high', 'range-unit', 'range-basis', 'population']) {
      if (flags.flags[name] !== undefined) throw new UsageError(`--${name} is for research entries`);
    }
    f.reference_title = emptyIsNull(textFlag(flags, 'reference-title'));
  }
  return f;
}

const emptyIsNull = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v);

function entryId(flags: Flags, kind: ContextKind): string {
  const id = positional(flags, 0, 'entry_id');
  if (!/^(rsc|reg)_[0-9a-z]{12}$/.test(id)) throw new UsageError(`${id} is not an entry id (rsc_… research, reg_… regulatory)`);
  if (contextKindOf(id) !== kind) throw new UsageError(`${id} is a ${contextKindOf(id)} entry: use \`${contextKindOf(id)} …\``);
  return id;
}

const common = '--authority A --kind K --date YYYY[-MM[-DD]] --title T --what TEXT --url https://…';

function contextNoun(kind: ContextKind): Noun {
  const specific =
    kind === 'research'
      ? '[--range-low N --range-high N --range-unit U] [--range-basis B] [--population P]'
      : '[--caution] [--reference-title T]';
  return {
    noun: kind,
    summary:
      kind === 'research'
        ? 'add, correct, retire and list the research context of an ingredient (curation; decision 1601)'
        : 'add, correct, retire and list the regulatory records and documented cautions of an ingredient (curation; decision 1601)',
    verbs: {
      add: {
        usage: `--ingredient I ${common} ${specific} [--by NAME]   (the reference on the allow-list of authorities' domains; one new record version)`,
        run: async (ctx) => {
          const out = await addContext(ctx.pool, kind, { ingredient_id: required(ctx.flags, 'ingredient'), ...fields(ctx.flags, kind, false), by: operatorName(ctx) });
          return { ...out, entry: (await listContext(ctx.pool, kind, { entry_id: out.entry_id }))[0] };
        },
      },
      correct: {
        usage: `<entry_id> --note PUBLIC_NOTE [any of: ${common.replace(/ --/g, ' | --')} | ${specific}] [--by NAME]   (keeps the id; the answer shows each field before and after)`,
        run: async (ctx) => {
          const out = await correctContext(ctx.pool, { entry_id: entryId(ctx.flags, kind), note: required(ctx.flags, 'note'), ...fields(ctx.flags, kind, true), by: operatorName(ctx) });
          return { ...out };
        },
      },
      retire: {
        usage: '<entry_id> --note PUBLIC_NOTE [--on YYYY-MM-DD] [--by NAME]   (the entry stays in the Record; answers say it was retired, and why)',
        run: async (ctx) => {
          const out = await retireContext(ctx.pool, { entry_id: entryId(ctx.flags, kind), note: required(ctx.flags, 'note'), on: optional(ctx.flags, 'on'), by: operatorName(ctx) });
          return { ...out };
        },
      },
      list: {
        usage: '--ingredient I   (every entry, retired ones included, with its corrections)',
        run: async ({ pool, flags }) => ({ entries: await listContext(pool, kind, { ingredient_id: required(flags, 'ingredient') }) }),
      },
    },
  };
}

export const research = contextNoun('research');
export const regulatory = contextNoun('regulatory');
