import { z } from 'zod';
import { IngredientId, randomId, readsAsVerdict, regulatoryKinds, researchKinds, systemClock, utcDate, type Clock } from '@evidence-record/contract';
import { withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { CurationRefused, NotFound } from './errors';
import { referenceUrl } from './references';
import { publicText } from './text';

/**
 * Research context and regulatory records of an ingredient, curated (issue
 * 23, decision 1601): added, corrected and retired by a curator from the CLI
 * (`research …`, `regulatory …`) or the review console, each change one Record
 * change, so answers read it at once at a new record version. A correction
 * keeps what it replaced beside what it put in place (context_corrections);
 * a retired entry stays in the Record, dated and explained, and answers say
 * it was retired instead of serving it.
 */

export type ContextKind = 'research' | 'regulatory';

/** The fields a curator writes, by the names answers and corrections use. */
export interface ContextFields {
  authority?: string;
  kind?: string;
  date?: string;
  title?: string;
  /** Research: the evidence summary; regulatory: what the filing is. */
  what?: string;
  url?: string;
  /** Regulatory: the reference's own title, when it differs from the record's title. */
  reference_title?: string | null;
  /** Regulatory: the authority's own documented caution. */
  caution?: boolean;
  range_low?: number | null;
  range_high?: number | null;
  range_unit?: string | null;
  range_basis?: string | null;
  population?: string | null;
}

export interface AddContextInput extends ContextFields {
  ingredient_id: string;
  by: string;
  clock?: Clock;
}

export interface ContextCorrection {
  kind: 'correction' | 'retirement';
  recorded_on: string;
  note: string;
  changes: Array<{ field: string; before: string | number | boolean | null; after: string | number | boolean | null }>;
  by: string | null;
}

const control = /\p{Cc}/u;

/** A short public line (an authority, a title, a unit): trimmed, one line, within bounds. */
function line(what: string, raw: string, min: number, max: number): string {
  const text = raw.trim();
  if (control.test(text)) throw new CurationRefused(`${what} contains a control character; it is one plain line`, 'invalid_text');
  if (text.length < min) throw new CurationRefused(`${what} is ${text.length} characters after trimming; at least ${min} are needed`, 'invalid_text');
  if (text.length > max) throw new CurationRefused(`${what} is ${text.length} characters; at most ${max}`, 'invalid_text');
  return text;
}

const optionalLine = (what: string, raw: string | null | undefined, max: number) => (raw === null || raw === undefined || raw.trim() === '' ? null : line(what, raw, 1, max));

/** A publication or filing date: a year, a month or a day, real, from 1900 to today. */
export function contextDate(raw: string, clock: Clock = systemClock): string {
  const text = raw.trim();
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  const valid = (() => {
    if (!m) return false;
    const [y, mo, d] = [Number(m[1]), m[2] ? Number(m[2]) : 1, m[3] ? Number(m[3]) : 1];
    const at = new Date(Date.UTC(y, mo - 1, d));
    return y >= 1900 && mo >= 1 && mo <= 12 && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
  })();
  if (!valid) throw new CurationRefused(`the date ${JSON.stringify(text)} is not a year, month or day (YYYY, YYYY-MM or YYYY-MM-DD) from 1900 on`, 'invalid_input');
  if (text > utcDate(clock()).slice(0, text.length)) throw new CurationRefused(`the date ${text} is in the future`, 'invalid_input');
  return text;
}

function kindOf(kind: ContextKind, raw: string): string {
  const allowed: readonly string[] = kind === 'research' ? researchKinds : regulatoryKinds;
  const k = raw.trim();
  if (!allowed.includes(k)) throw new CurationRefused(`${JSON.stringify(k)} is not a ${kind} kind (${allowed.join(', ')})`, 'invalid_input');
  return k;
}

const amount = z.number().finite().nonnegative().max(1e9);

/** A whole entry checked against every rule, as it will be stored. */
interface CheckedEntry {
  authority: string;
  record_kind: string;
  date: string;
  title: string;
  what: string;
  url: string;
  reference_title: string | null;
  caution: boolean;
  range_low: number | null;
  range_high: number | null;
  range_unit: string | null;
  range_basis: string | null;
  population: string | null;
}

/** One entry as curators see it (the CLI's list, the console's page); entries from before curation may lack an authority, a date or an address. */
export interface ContextEntry extends Omit<CheckedEntry, 'authority' | 'date' | 'url'> {
  entry_id: string;
  kind: ContextKind;
  ingredient_id: string;
  authority: string | null;
  date: string | null;
  url: string | null;
  retired_on: string | null;
  retired_note: string | null;
  added_by: string | null;
  corrections: ContextCorrection[];
}

/** The flag each field is given with (CLI) or named by (console), for refusals that ask for one. */
const flagOf: Record<'authority' | 'kind' | 'date' | 'title' | 'what' | 'url', string> = { authority: '--authority', kind: '--kind', date: '--date', title: '--title', what: '--what', url: '--url' };

function checkEntry(kind: ContextKind, f: ContextFields, clock: Clock): CheckedEntry {
  const missing = (Object.keys(flagOf) as Array<keyof typeof flagOf>).filter((k) => f[k] === undefined || f[k] === null);
  if (missing.length) throw new CurationRefused(`a ${kind} entry names its ${missing.join(', ')} (${missing.map((k) => flagOf[k]).join(' ')})`, 'invalid_input');
  const authority = line('the authority', f.authority!, 2, 200);
  const recordKind = kindOf(kind, f.kind!);
  const date = contextDate(f.date!, clock);
  const title = line('the title', f.title!, 10, 500);
  const what = publicText(kind === 'research' ? 'the evidence summary' : 'what the filing is', f.what!, 2000);
  const { url, domain } = referenceUrl(f.url!);
  const caution = f.caution === true;
  if (kind === 'research' && caution) {
    throw new CurationRefused('a documented caution is an authority\'s own published caution: record it as a regulatory record (regulatory add --caution)', 'invalid_input');
  }
  if (kind === 'regulatory' && readsAsVerdict(what)) {
    // Spec: a filing is never an approval, a warning or a finding of harm. Say what the filing is, not what it means for a product.
    throw new CurationRefused(
      'what the filing is reads as an approval, a verdict on a product or a finding of harm ("approved", "is safe", "causes harm" …); say what the filing is and who issued it',
      'reads_as_verdict',
    );
  }
  if (caution) {
    // A documented caution is the authority's own: published on its domain, under its name.
    if (!domain.authority) {
      throw new CurationRefused(`a documented caution is the authority's own: its reference must be on the authority's domain, and ${domain.domain} carries ${domain.what}`, 'caution_not_authoritys_own');
    }
    const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
    if (norm(authority) !== norm(domain.authority)) {
      throw new CurationRefused(
        `a documented caution is the authority's own: the reference is on ${domain.domain} (${domain.authority}), so the authority is ${JSON.stringify(domain.authority)}, not ${JSON.stringify(authority)}`,
        'caution_not_authoritys_own',
      );
    }
  }
  const num = (what: string, v: number | null | undefined) => {
    if (v === null || v === undefined) return null;
    const parsed = amount.safeParse(v);
    if (!parsed.success) throw new CurationRefused(`${what} must be a number from 0`, 'invalid_input');
    return parsed.data;
  };
  const low = kind === 'research' ? num('the studied range\'s low end', f.range_low) : null;
  const high = kind === 'research' ? num('the studied range\'s high end', f.range_high) : null;
  const unit = kind === 'research' ? optionalLine('the studied range\'s unit', f.range_unit, 60) : null;
  if (low !== null && high !== null && low > high) throw new CurationRefused(`the studied range runs from ${low} to ${high}: its low end is above its high end`, 'invalid_input');
  if ((low !== null || high !== null) && unit === null) throw new CurationRefused('a studied range names its unit (--range-unit)', 'invalid_input');
  return {
    authority,
    record_kind: recordKind,
    date,
    title,
    what,
    url,
    reference_title: kind === 'regulatory' ? optionalLine('the reference title', f.reference_title, 500) : null,
    caution,
    range_low: low,
    range_high: high,
    range_unit: unit,
    range_basis: kind === 'research' ? optionalLine('the studied range\'s basis', f.range_basis, 500) : null,
    population: kind === 'research' ? optionalLine('the population', f.population, 500) : null,
  };
}

async function requireIngredient(client: PoolClient, ingredientId: string): Promise<void> {
  if (!IngredientId.safeParse(ingredientId).success) throw new CurationRefused(`${ingredientId} is not an ingredient id (ing_…)`, 'invalid_input');
  const { rowCount } = await client.query('SELECT 1 FROM ingredients WHERE ingredient_id = $1', [ingredientId]);
  if (!rowCount) throw new NotFound(`no ingredient ${ingredientId}`);
}

const tableOf = (kind: ContextKind) => (kind === 'research' ? 'research_context' : 'regulatory_records');

/** Adds a research entry or a regulatory record in one Record change. */
export async function addContext(pool: Pool, kind: ContextKind, input: AddContextInput): Promise<{ entry_id: string; ingredient_id: string; record_version: string | null }> {
  const e = checkEntry(kind, input, input.clock ?? systemClock);
  const by = line('who added it', input.by, 1, 200);
  const entryId = `${kind === 'research' ? 'rsc' : 'reg'}_${randomId()}`;
  const { record_version } = await withRecordChange(pool, `${kind} entry ${entryId} added for ${input.ingredient_id}`, async (client) => {
    await requireIngredient(client, input.ingredient_id);
    const dup = await client.query<{ entry_id: string }>(
      `SELECT entry_id FROM ${tableOf(kind)} WHERE ingredient_id = $1 AND reference_url = $2 AND retired_on IS NULL`,
      [input.ingredient_id, e.url],
    );
    if (dup.rows[0]) throw new CurationRefused(`${dup.rows[0].entry_id} already cites ${e.url} for ${input.ingredient_id}; correct it instead`, 'duplicate');
    if (kind === 'research') {
      await client.query(
        `INSERT INTO research_context (entry_id, ingredient_id, authority, reference_kind, dated, reference_year, reference_title, evidence, reference_url,
                                       range_low, range_high, range_unit, range_basis, population, added_by, added_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now())`,
        [entryId, input.ingredient_id, e.authority, e.record_kind, e.date, Number(e.date.slice(0, 4)), e.title, e.what, e.url, e.range_low, e.range_high, e.range_unit, e.range_basis, e.population, by],
      );
    } else {
      await client.query(
        `INSERT INTO regulatory_records (entry_id, ingredient_id, authority, record_kind, dated, year, title, what_it_is, reference_url, reference_title, is_caution, added_by, added_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())`,
        [entryId, input.ingredient_id, e.authority, e.record_kind, e.date, Number(e.date.slice(0, 4)), e.title, e.what, e.url, e.reference_title, e.caution, by],
      );
    }
  });
  return { entry_id: entryId, ingredient_id: input.ingredient_id, record_version };
}

const entryIdPattern = /^(rsc|reg)_[0-9a-z]{12}$/;

/** An entry's kind from its id (rsc_ research, reg_ regulatory); anything else is refused. */
export function contextKindOf(entryId: string): ContextKind {
  if (!entryIdPattern.test(entryId)) throw new CurationRefused(`${entryId} is not a research (rsc_…) or regulatory (reg_…) entry id`, 'invalid_input');
  return entryId.startsWith('rsc_') ? 'research' : 'regulatory';
}

interface StoredEntry extends CheckedEntry {
  ingredient_id: string;
  retired_on: string | null;
}

async function storedEntry(client: PoolClient | Pool, entryId: string, lock: boolean): Promise<StoredEntry> {
  const kind = contextKindOf(entryId);
  const select =
    kind === 'research'
      ? `SELECT ingredient_id, authority, reference_kind AS record_kind, coalesce(dated, reference_year::text) AS date, reference_title AS title, evidence AS what,
                reference_url AS url, NULL::text AS reference_title, false AS caution, range_low, range_high, range_unit, range_basis, population, retired_on::text AS retired_on
           FROM research_context WHERE entry_id = $1`
      : `SELECT ingredient_id, authority, record_kind, coalesce(dated, year::text) AS date, title, what_it_is AS what, reference_url AS url, reference_title,
                is_caution AS caution, NULL::numeric AS range_low, NULL::numeric AS range_high, NULL::text AS range_unit, NULL::text AS range_basis, NULL::text AS population,
                retired_on::text AS retired_on
           FROM regulatory_records WHERE entry_id = $1`;
  const { rows } = await client.query<StoredEntry>(`${select}${lock ? ' FOR UPDATE' : ''}`, [entryId]);
  if (!rows[0]) throw new NotFound(`no ${kind} entry ${entryId}`);
  return rows[0];
}

/** Field names in a correction's `changes`, as answers name them (decision 1601). */
const publicField: Record<keyof CheckedEntry, Record<ContextKind, string>> = {
  authority: { research: 'authority', regulatory: 'authority' },
  record_kind: { research: 'kind', regulatory: 'record_kind' },
  date: { research: 'date', regulatory: 'date' },
  title: { research: 'title', regulatory: 'title' },
  what: { research: 'evidence', regulatory: 'what_it_is' },
  url: { research: 'url', regulatory: 'url' },
  reference_title: { research: 'reference_title', regulatory: 'reference_title' },
  caution: { research: 'documented_caution', regulatory: 'documented_caution' },
  range_low: { research: 'range_low', regulatory: 'range_low' },
  range_high: { research: 'range_high', regulatory: 'range_high' },
  range_unit: { research: 'range_unit', regulatory: 'range_unit' },
  range_basis: { research: 'range_basis', regulatory: 'range_basis' },
  population: { research: 'population', regulatory: 'population' },
};

export interface CorrectContextInput extends ContextFields {
  entry_id: string;
  /** Public: shown with the entry in every answer that serves it. */
  note: string;
  by: string;
  clock?: Clock;
}

/**
 * Corrects an entry: the named fields change, the row keeps its id, and the
 * correction records each field's text before and after, with a public note.
 */
export async function correctContext(
  pool: Pool,
  input: CorrectContextInput,
): Promise<{ entry_id: string; correction_id: number; changes: ContextCorrection['changes']; record_version: string | null }> {
  const kind = contextKindOf(input.entry_id);
  const note = publicText('the public note', input.note, 1000);
  const by = line('who corrected it', input.by, 1, 200);
  const clock = input.clock ?? systemClock;
  const { result, record_version } = await withRecordChange(pool, `${kind} entry ${input.entry_id} corrected`, async (client) => {
    const now = await storedEntry(client, input.entry_id, true);
    if (now.retired_on !== null) throw new CurationRefused(`${input.entry_id} was retired on ${now.retired_on}; a retired entry is not corrected (add a new one)`, 'retired');
    // What the entry will say: each field given, else what it says now; checked whole, as an added entry is.
    const or = <T,>(given: T | undefined, stored: T) => (given === undefined ? stored : given);
    const next = checkEntry(
      kind,
      {
        authority: or(input.authority, now.authority),
        kind: or(input.kind, now.record_kind),
        date: or(input.date, now.date),
        title: or(input.title, now.title),
        what: or(input.what, now.what),
        url: or(input.url, now.url),
        reference_title: or(input.reference_title, now.reference_title),
        caution: or(input.caution, now.caution),
        range_low: or(input.range_low, now.range_low),
        range_high: or(input.range_high, now.range_high),
        range_unit: or(input.range_unit, now.range_unit),
        range_basis: or(input.range_basis, now.range_basis),
        population: or(input.population, now.population),
      },
      clock,
    );
    const changes: ContextCorrection['changes'] = [];
    for (const field of Object.keys(publicField) as Array<keyof CheckedEntry>) {
      const before = now[field] === undefined ? null : now[field];
      const after = next[field];
      if (JSON.stringify(before === null ? null : typeof before === 'number' ? Number(before) : before) !== JSON.stringify(after)) changes.push({ field: publicField[field][kind], before, after });
    }
    if (changes.length === 0) throw new CurationRefused(`the correction changes nothing in ${input.entry_id}`, 'no_change');
    if (next.url !== now.url) {
      const dup = await client.query<{ entry_id: string }>(
        `SELECT entry_id FROM ${tableOf(kind)} WHERE ingredient_id = $1 AND reference_url = $2 AND retired_on IS NULL AND entry_id <> $3`,
        [now.ingredient_id, next.url, input.entry_id],
      );
      if (dup.rows[0]) throw new CurationRefused(`${dup.rows[0].entry_id} already cites ${next.url} for ${now.ingredient_id}`, 'duplicate');
    }
    if (kind === 'research') {
      await client.query(
        `UPDATE research_context SET authority = $2, reference_kind = $3, dated = $4, reference_year = $5, reference_title = $6, evidence = $7, reference_url = $8,
                range_low = $9, range_high = $10, range_unit = $11, range_basis = $12, population = $13
          WHERE entry_id = $1`,
        [input.entry_id, next.authority, next.record_kind, next.date, Number(next.date.slice(0, 4)), next.title, next.what, next.url, next.range_low, next.range_high, next.range_unit, next.range_basis, next.population],
      );
    } else {
      await client.query(
        `UPDATE regulatory_records SET authority = $2, record_kind = $3, dated = $4, year = $5, title = $6, what_it_is = $7, reference_url = $8, reference_title = $9, is_caution = $10
          WHERE entry_id = $1`,
        [input.entry_id, next.authority, next.record_kind, next.date, Number(next.date.slice(0, 4)), next.title, next.what, next.url, next.reference_title, next.caution],
      );
    }
    const { rows } = await client.query<{ correction_id: string }>(
      `INSERT INTO context_corrections (entry_id, kind, recorded_on, public_note, changes, recorded_by) VALUES ($1, 'correction', $2, $3, $4, $5) RETURNING correction_id`,
      [input.entry_id, utcDate(clock()), note, JSON.stringify(changes), by],
    );
    return { correctionId: Number(rows[0]!.correction_id), changes };
  });
  return { entry_id: input.entry_id, correction_id: result.correctionId, changes: result.changes, record_version };
}

export interface RetireContextInput {
  entry_id: string;
  note: string;
  /** The retirement date: today (UTC) unless given; never in the future. */
  on?: string;
  by: string;
  clock?: Clock;
}

/** Retires an entry: it stays in the Record with the date and the public reason; answers say it was retired. */
export async function retireContext(pool: Pool, input: RetireContextInput): Promise<{ entry_id: string; retired_on: string; record_version: string | null }> {
  const kind = contextKindOf(input.entry_id);
  const note = publicText('the public note', input.note, 1000);
  const by = line('who retired it', input.by, 1, 200);
  const clock = input.clock ?? systemClock;
  const today = utcDate(clock());
  const on = input.on === undefined ? today : contextDate(input.on, clock);
  if (on.length !== 10) throw new CurationRefused(`a retirement is dated to a day (YYYY-MM-DD), not ${on}`, 'invalid_input');
  const { record_version } = await withRecordChange(pool, `${kind} entry ${input.entry_id} retired`, async (client) => {
    const now = await storedEntry(client, input.entry_id, true);
    if (now.retired_on !== null) throw new CurationRefused(`${input.entry_id} was already retired on ${now.retired_on}`, 'retired');
    await client.query(`UPDATE ${tableOf(kind)} SET retired_on = $2, retired_note = $3 WHERE entry_id = $1`, [input.entry_id, on, note]);
    await client.query(`INSERT INTO context_corrections (entry_id, kind, recorded_on, public_note, recorded_by) VALUES ($1, 'retirement', $2, $3, $4)`, [input.entry_id, today, note, by]);
  });
  return { entry_id: input.entry_id, retired_on: on, record_version };
}

/** The entries of one kind for an ingredient (or one entry), retired ones included, with their corrections; newest date first. */
export async function listContext(pool: Pool, kind: ContextKind, filter: { ingredient_id?: string; entry_id?: string }): Promise<ContextEntry[]> {
  const corrections = `coalesce((SELECT json_agg(json_build_object('kind', c.kind, 'recorded_on', c.recorded_on, 'note', c.public_note, 'changes', c.changes, 'by', c.recorded_by) ORDER BY c.correction_id)
                                   FROM context_corrections c WHERE c.entry_id = t.entry_id), '[]') AS corrections`;
  const select =
    kind === 'research'
      ? `SELECT t.entry_id, 'research' AS kind, t.ingredient_id, t.authority, t.reference_kind AS record_kind, coalesce(t.dated, t.reference_year::text) AS date,
                t.reference_title AS title, t.evidence AS what, t.reference_url AS url, NULL::text AS reference_title, false AS caution,
                t.range_low, t.range_high, t.range_unit, t.range_basis, t.population, t.retired_on::text AS retired_on, t.retired_note, t.added_by, ${corrections}
           FROM research_context t`
      : `SELECT t.entry_id, 'regulatory' AS kind, t.ingredient_id, t.authority, t.record_kind, coalesce(t.dated, t.year::text) AS date, t.title, t.what_it_is AS what,
                t.reference_url AS url, t.reference_title, t.is_caution AS caution, NULL::numeric AS range_low, NULL::numeric AS range_high, NULL::text AS range_unit,
                NULL::text AS range_basis, NULL::text AS population, t.retired_on::text AS retired_on, t.retired_note, t.added_by, ${corrections}
           FROM regulatory_records t`;
  if (filter.ingredient_id !== undefined) {
    const { rowCount } = await pool.query('SELECT 1 FROM ingredients WHERE ingredient_id = $1', [filter.ingredient_id]);
    if (!rowCount) throw new NotFound(`no ingredient ${filter.ingredient_id}`);
  }
  const { rows } = await pool.query<ContextEntry>(
    `${select} WHERE ($1::text IS NULL OR t.ingredient_id = $1) AND ($2::text IS NULL OR t.entry_id = $2)
      ORDER BY t.ingredient_id, date DESC NULLS LAST, t.entry_id LIMIT 10000`,
    [filter.ingredient_id ?? null, filter.entry_id ?? null],
  );
  return rows;
}

/** The ingredients with how many current and retired entries of each kind they have: the console's index. */
export async function contextIndex(pool: Pool): Promise<Array<{ ingredient_id: string; name: string; research: number; regulatory: number; cautions: number; retired: number }>> {
  const { rows } = await pool.query(
    `SELECT i.ingredient_id, i.name,
            (SELECT count(*)::int FROM research_context r WHERE r.ingredient_id = i.ingredient_id AND r.retired_on IS NULL) AS research,
            (SELECT count(*)::int FROM regulatory_records g WHERE g.ingredient_id = i.ingredient_id AND g.retired_on IS NULL AND NOT g.is_caution) AS regulatory,
            (SELECT count(*)::int FROM regulatory_records g WHERE g.ingredient_id = i.ingredient_id AND g.retired_on IS NULL AND g.is_caution) AS cautions,
            (SELECT count(*)::int FROM research_context r WHERE r.ingredient_id = i.ingredient_id AND r.retired_on IS NOT NULL)
              + (SELECT count(*)::int FROM regulatory_records g WHERE g.ingredient_id = i.ingredient_id AND g.retired_on IS NOT NULL) AS retired
       FROM ingredients i ORDER BY i.name, i.ingredient_id`,
  );
  return rows;
}
