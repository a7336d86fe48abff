import { z } from 'zod';
import { normalizeName } from '@evidence-record/record-store';
import { takeRecordWriterLock, withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { CurationRefused, NotFound } from './errors';
import { ingredientCatalogue, type CatalogueEntry } from './ingredient-catalogue';
import { addGroup, addName, emptyIndex, identify, normaliseUnii, plainName, suggestionsFor, type IdentityIndex, type Suggestion } from './identity-rules';

/**
 * Ingredient identity in the Record (decision 1500): the catalogue's
 * identifiers, the curation verbs that grow them, and the re-derivation that
 * carries every change of identity to the lines already read. A change of
 * identity is one Record change (a new record version) and never a Signal:
 * declared facts do not change, only what they are identified as.
 */

type Db = Pool | PoolClient;

/** Everything the rules know, as the Record holds it now. */
export async function loadIdentityIndex(db: Db): Promise<IdentityIndex> {
  const index = emptyIndex();
  // One after another: `db` may be a single client inside a transaction.
  const ingredients = await db.query<{ ingredient_id: string; name: string }>('SELECT ingredient_id, name FROM ingredients');
  const synonyms = await db.query<{ synonym: string; ingredient_id: string }>('SELECT synonym, ingredient_id FROM ingredient_synonyms');
  const uniis = await db.query<{ unii: string; ingredient_id: string }>('SELECT unii, ingredient_id FROM ingredient_uniis');
  const groups = await db.query<{ group_name: string; form_name: string | null; ingredient_id: string }>('SELECT group_name, form_name, ingredient_id FROM ingredient_groups');
  for (const r of ingredients.rows) {
    index.names.set(r.ingredient_id, r.name);
    addName(index, r.name, r.ingredient_id);
  }
  for (const r of synonyms.rows) addName(index, r.synonym, r.ingredient_id);
  for (const r of uniis.rows) index.byUnii.set(r.unii, r.ingredient_id);
  for (const r of groups.rows) addGroup(index, r.group_name, r.form_name, r.ingredient_id);
  return index;
}

/** The newest change of identity: a reader caching the rules reloads when it moves. */
export async function identityStamp(db: Db): Promise<number> {
  const { rows } = await db.query<{ stamp: string }>('SELECT coalesce(max(change_id), 0)::text AS stamp FROM ingredient_identity_changes');
  return Number(rows[0]!.stamp);
}

async function logChange(client: PoolClient, by: string, action: string, detail: Record<string, unknown>): Promise<void> {
  await client.query('INSERT INTO ingredient_identity_changes (changed_by, action, detail) VALUES ($1, $2, $3)', [by, action, JSON.stringify(detail)]);
}

/** A line whose identity the rules make (and remake): not one a capture named itself. */
const RULED = `(d.identified_by IN ('unii', 'group', 'name') OR d.ingredient_id IS NULL)`;
const FORMS_KEY = `array_to_string(d.forms, E'\\x1e')`;

/**
 * Re-derives the identity of every line the rules identify (or could), with
 * the index as it is now; returns how many lines changed. Declared names,
 * amounts and identifiers are untouched. Runs inside the caller's Record change.
 */
export async function reidentifyLines(client: PoolClient, index?: IdentityIndex): Promise<number> {
  const idx = index ?? (await loadIdentityIndex(client));
  const { rows } = await client.query<{ declared_name: string; unii: string | null; ingredient_group: string | null; forms: string[]; ingredient_id: string | null; identified_by: string | null }>(
    `SELECT d.declared_name, d.unii, d.ingredient_group, d.forms, d.ingredient_id, d.identified_by
       FROM declared_ingredients d WHERE ${RULED}
      GROUP BY 1, 2, 3, 4, 5, 6`,
  );
  const changes = rows.flatMap((r) => {
    const now = identify(r, idx);
    return now.ingredient_id === r.ingredient_id && now.identified_by === r.identified_by ? [] : [{ ...r, now }];
  });
  if (changes.length === 0) return 0;
  const updated = await client.query(
    `UPDATE declared_ingredients d SET ingredient_id = u.new_id, identified_by = u.new_basis
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(declared_name, unii, ingredient_group, forms, old_id, new_id, new_basis)
      WHERE ${RULED} AND d.declared_name = u.declared_name AND d.unii IS NOT DISTINCT FROM u.unii
        AND d.ingredient_group IS NOT DISTINCT FROM u.ingredient_group AND ${FORMS_KEY} = u.forms
        AND d.ingredient_id IS NOT DISTINCT FROM u.old_id`,
    [
      changes.map((c) => c.declared_name),
      changes.map((c) => c.unii),
      changes.map((c) => c.ingredient_group),
      changes.map((c) => c.forms.join('\x1e')),
      changes.map((c) => c.ingredient_id),
      changes.map((c) => c.now.ingredient_id),
      changes.map((c) => c.now.identified_by),
    ],
  );
  return updated.rowCount ?? 0;
}

// ---------------------------------------------------------------------------------------------------------
// The catalogue: applied by migrate and by the demo seed; it only adds.
// ---------------------------------------------------------------------------------------------------------

/**
 * The ingredients other than `target` a name already names: as printed, or read without its descriptors (decision
 * 1500's name rule), where a second ingredient would leave every line printed that way ambiguous.
 */
function otherHolders(index: IdentityIndex, target: string, norm: string): { others: string[]; plain: string | null } {
  const exact = [...(index.byName.get(norm) ?? [])].filter((id) => id !== target);
  if (exact.length) return { others: exact, plain: null };
  const plain = plainName(norm);
  return { others: plain ? [...(index.byPlainName.get(plain) ?? [])].filter((id) => id !== target) : [], plain };
}

export interface CatalogueApplied {
  ingredients_added: number;
  names_added: number;
  uniis_added: number;
  groups_added: number;
  /** Identifiers the Record already gives another ingredient (a curator's): kept, and the catalogue's skipped. */
  conflicts: string[];
  lines_reidentified: number;
}

/** Applies the catalogue inside the caller's Record change; writes nothing when the Record already holds it all. */
export async function applyCatalogueIn(client: PoolClient, entries: readonly CatalogueEntry[] = ingredientCatalogue, by = 'catalogue'): Promise<CatalogueApplied> {
  await takeRecordWriterLock(client);
  const index = await loadIdentityIndex(client);
  // A name counts for the rules from ingredients.name too; search reads ingredient_synonyms only, so every name is one.
  const held = new Set((await client.query<{ k: string }>("SELECT synonym_norm || ' ' || ingredient_id AS k FROM ingredient_synonyms")).rows.map((r) => r.k));
  const out: CatalogueApplied = { ingredients_added: 0, names_added: 0, uniis_added: 0, groups_added: 0, conflicts: [], lines_reidentified: 0 };
  const ingredients: Array<[string, string, string]> = [];
  const names: Array<[string, string, string]> = [];
  const uniis: Array<[string, string, string]> = [];
  const groups: Array<[string, string, string | null, string, string]> = [];
  for (const e of entries) {
    if (!index.names.has(e.ingredient_id)) {
      const taken = otherHolders(index, e.ingredient_id, normalizeName(e.name)).others;
      if (taken.length > 0) {
        out.conflicts.push(`${e.ingredient_id}: its name "${e.name}" already names ${taken.join(', ')}`);
        continue;
      }
      ingredients.push([e.ingredient_id, e.name, e.kind]);
      index.names.set(e.ingredient_id, e.name);
    }
    const seen = new Set<string>();
    for (const n of [e.name, ...(e.synonyms ?? [])]) {
      const norm = normalizeName(n);
      if (!norm || seen.has(norm)) continue;
      seen.add(norm);
      const { others, plain } = otherHolders(index, e.ingredient_id, norm);
      if (others.length > 0) out.conflicts.push(`${e.ingredient_id}: "${n}"${plain === null ? '' : ` (read as "${plain}")`} already names ${others.join(', ')}`);
      else if (!held.has(`${norm} ${e.ingredient_id}`)) {
        names.push([n, norm, e.ingredient_id]);
        held.add(`${norm} ${e.ingredient_id}`);
        addName(index, n, e.ingredient_id);
      }
    }
    for (const { unii, source } of e.uniis ?? []) {
      const holder = index.byUnii.get(unii);
      if (holder && holder !== e.ingredient_id) out.conflicts.push(`${e.ingredient_id}: UNII ${unii} already identifies ${holder}`);
      else if (!holder) {
        uniis.push([unii, e.ingredient_id, source]);
        index.byUnii.set(unii, e.ingredient_id);
      }
    }
    for (const g of e.groups ?? []) {
      const gNorm = normalizeName(g.group);
      const fNorm = g.form ? normalizeName(g.form) : '';
      const holder = index.byGroup.get(gNorm)?.get(fNorm);
      if (holder && holder !== e.ingredient_id) out.conflicts.push(`${e.ingredient_id}: DSLD group "${g.group}"${g.form ? ` as "${g.form}"` : ''} already identifies ${holder}`);
      else if (!holder) {
        groups.push([g.group, gNorm, g.form ?? null, fNorm, e.ingredient_id]);
        addGroup(index, g.group, g.form, e.ingredient_id);
      }
    }
  }
  if (ingredients.length + names.length + uniis.length + groups.length === 0) return out;
  await insertRows(client, 'ingredients (ingredient_id, name, kind)', ingredients);
  await insertRows(client, 'ingredient_synonyms (synonym, synonym_norm, ingredient_id)', names);
  await insertRows(client, 'ingredient_uniis (unii, ingredient_id, source)', uniis);
  await insertRows(client, 'ingredient_groups (group_name, group_norm, form_name, form_norm, ingredient_id)', groups);
  Object.assign(out, { ingredients_added: ingredients.length, names_added: names.length, uniis_added: uniis.length, groups_added: groups.length });
  out.lines_reidentified = await reidentifyLines(client, index);
  await logChange(client, by, 'catalogue', { ...out, conflicts: out.conflicts.length });
  return out;
}

/** One INSERT of many rows, column by column (`target` is the table and its columns, all text). */
async function insertRows(client: PoolClient, target: string, rows: ReadonlyArray<ReadonlyArray<string | null>>): Promise<void> {
  if (rows.length === 0) return;
  const width = rows[0]!.length;
  const columns = Array.from({ length: width }, (_, c) => rows.map((r) => r[c] ?? null));
  await client.query(`INSERT INTO ${target} SELECT * FROM unnest(${columns.map((_, c) => `$${c + 1}::text[]`).join(', ')})`, columns);
}

/** Applies the catalogue as its own Record change (migrate, `npm run up`): `record_version` null when it was all there. */
export async function applyIngredientCatalogue(pool: Pool, by = 'catalogue'): Promise<CatalogueApplied & { record_version: string | null }> {
  const { result, record_version } = await withRecordChange(pool, 'ingredient catalogue', (client) => applyCatalogueIn(client, ingredientCatalogue, by));
  return { ...result, record_version };
}

// ---------------------------------------------------------------------------------------------------------
// Curation verbs: `ingredient add`, `ingredient alias`, `ingredient list [--unidentified]`, the console's page.
// ---------------------------------------------------------------------------------------------------------

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !/\p{Cc}/u.test(s), 'no control characters')
    .refine((s) => normalizeName(s) !== '', 'a name needs a letter or a digit');
const uniiInput = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => normaliseUnii(s) !== null, 'a UNII is 10 letters and digits (DSLD placeholders such as "0" are not UNIIs)');

const IdentifiersInput = {
  uniis: z.array(uniiInput).max(20).default([]),
  groups: z.array(text(200)).max(20).default([]),
};
export const AddIngredientInput = z.strictObject({
  name: text(200),
  kind: z.string().trim().regex(/^[a-z][a-z_]{1,39}$/, 'a kind is lowercase letters and underscores').default('ingredient'),
  // More names it is printed as (the console adds the declared name it was created from).
  aliases: z.array(text(200)).max(20).default([]),
  ...IdentifiersInput,
  by: text(120),
});
export const AliasIngredientInput = z
  .strictObject({
    ingredient_id: z.string().trim().min(1).max(120),
    names: z.array(text(200)).max(20).default([]),
    ...IdentifiersInput,
    by: text(120),
  })
  .refine((a) => a.names.length + a.uniis.length + a.groups.length > 0, { message: 'give at least one name, UNII or group', path: ['names'] });

function parsed<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw new CurationRefused(r.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '), 'invalid_input');
  return r.data;
}

/** An ingredient as a curation verb leaves it. */
export type IdentityChange = Omit<IngredientListed, 'lines'> & {
  /** Lines already read that this change identified (or identified otherwise). */
  lines_reidentified: number;
  record_version: string | null;
};

/** Ingredients as a refusal names them: id and name. */
const heldBy = (index: IdentityIndex, ids: string[]) => ids.map((id) => `${id} (${index.names.get(id) ?? id})`).join(', ');

/** Refuses an identifier that already identifies another ingredient: a name would be identified as two. */
function claim(index: IdentityIndex, target: string, what: { names: string[]; uniis: string[]; groups: string[] }) {
  const conflicts: string[] = [];
  const names = [...new Map(what.names.map((n) => [normalizeName(n), n])).entries()];
  for (const [norm, n] of names) {
    const { others, plain } = otherHolders(index, target, norm);
    if (others.length && plain === null) conflicts.push(`"${n}" already names ${heldBy(index, others)}`);
    else if (others.length) conflicts.push(`"${n}" reads, without words such as "organic" or "powder", as "${plain}", which already names ${heldBy(index, others)}`);
  }
  for (const u of what.uniis) {
    const holder = index.byUnii.get(u);
    if (holder && holder !== target) conflicts.push(`UNII ${u} already identifies ${heldBy(index, [holder])}`);
  }
  for (const g of what.groups) {
    const holder = index.byGroup.get(normalizeName(g))?.get('');
    if (holder && holder !== target) conflicts.push(`DSLD group "${g}" already identifies ${heldBy(index, [holder])}`);
  }
  if (conflicts.length) throw new CurationRefused(`refused, it would identify a name as two ingredients: ${conflicts.join('; ')}`, 'identity_conflict');
  return {
    names: names.filter(([norm]) => !(index.byName.get(norm)?.has(target) ?? false)).map(([norm, n]) => [n, norm] as const),
    uniis: [...new Set(what.uniis)].filter((u) => index.byUnii.get(u) !== target),
    groups: [...new Map(what.groups.map((g) => [normalizeName(g), g])).entries()].filter(([norm]) => index.byGroup.get(norm)?.get('') !== target),
  };
}

async function attach(client: PoolClient, ingredientId: string, by: string, fresh: ReturnType<typeof claim>, alwaysNames: Array<readonly [string, string]> = []): Promise<void> {
  const names = [...alwaysNames, ...fresh.names];
  if (names.length) {
    await client.query('INSERT INTO ingredient_synonyms (synonym, synonym_norm, ingredient_id) SELECT s, n, $3 FROM unnest($1::text[], $2::text[]) AS x(s, n) ON CONFLICT DO NOTHING', [
      names.map((n) => n[0]),
      names.map((n) => n[1]),
      ingredientId,
    ]);
  }
  if (fresh.uniis.length) {
    await client.query('INSERT INTO ingredient_uniis (unii, ingredient_id, source) SELECT u, $2, $3 FROM unnest($1::text[]) AS u', [fresh.uniis, ingredientId, `curated by ${by}`]);
  }
  if (fresh.groups.length) {
    await client.query("INSERT INTO ingredient_groups (group_name, group_norm, form_name, form_norm, ingredient_id) SELECT g, n, NULL, '', $3 FROM unnest($1::text[], $2::text[]) AS x(g, n)", [
      fresh.groups.map((g) => g[1]),
      fresh.groups.map((g) => g[0]),
      ingredientId,
    ]);
  }
}

async function describe(db: Db, ingredientId: string): Promise<Omit<IdentityChange, 'lines_reidentified' | 'record_version'>> {
  const { rows } = await db.query<IngredientListed>(`${INGREDIENTS_LISTED} WHERE i.ingredient_id = $1`, [ingredientId]);
  if (!rows[0]) throw new NotFound(`no ingredient ${ingredientId}`);
  const { lines: _lines, ...described } = rows[0];
  return described;
}

/** An id for a new ingredient from its name: ing_ and the name's letters and digits, numbered if taken. */
function newIngredientId(name: string, index: IdentityIndex): string {
  const slug =
    normalizeName(name)
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 52) || 'ingredient';
  const base = `ing_${slug.length >= 2 ? slug : `${slug}_x`}`;
  let id = base;
  for (let n = 2; index.names.has(id); n++) id = `${base}_${n}`;
  return id;
}

/** `ingredient add`: a new canonical ingredient with its name and identifiers, carried at once to the lines already read. */
export async function addIngredient(pool: Pool, input: unknown): Promise<IdentityChange> {
  const a = parsed(AddIngredientInput, input);
  const { result, record_version } = await withRecordChange(pool, `ingredient add (${a.by})`, async (client) => {
    await takeRecordWriterLock(client);
    const index = await loadIdentityIndex(client);
    const ingredientId = newIngredientId(a.name, index);
    const fresh = claim(index, ingredientId, { names: [a.name, ...a.aliases], uniis: a.uniis, groups: a.groups });
    await client.query('INSERT INTO ingredients (ingredient_id, name, kind) VALUES ($1, $2, $3)', [ingredientId, a.name, a.kind]);
    await attach(client, ingredientId, a.by, fresh);
    const lines = await reidentifyLines(client);
    await logChange(client, a.by, 'add', { ingredient_id: ingredientId, name: a.name, aliases: a.aliases, uniis: a.uniis, groups: a.groups, lines_reidentified: lines });
    return { ...(await describe(client, ingredientId)), lines_reidentified: lines };
  });
  return { ...result, record_version };
}

/** `ingredient alias`: more names (or UNIIs, or DSLD groups) for an ingredient; refused if one already identifies another. */
export async function aliasIngredient(pool: Pool, input: unknown): Promise<IdentityChange> {
  const a = parsed(AliasIngredientInput, input);
  const { result, record_version } = await withRecordChange(pool, `ingredient alias (${a.by})`, async (client) => {
    await takeRecordWriterLock(client);
    const index = await loadIdentityIndex(client);
    if (!index.names.has(a.ingredient_id)) throw new NotFound(`no ingredient ${a.ingredient_id}`);
    const fresh = claim(index, a.ingredient_id, { names: a.names, uniis: a.uniis, groups: a.groups });
    await attach(client, a.ingredient_id, a.by, fresh);
    const lines = fresh.names.length + fresh.uniis.length + fresh.groups.length > 0 ? await reidentifyLines(client) : 0;
    if (fresh.names.length + fresh.uniis.length + fresh.groups.length > 0) {
      await logChange(client, a.by, 'alias', { ingredient_id: a.ingredient_id, names: fresh.names.map((n) => n[0]), uniis: fresh.uniis, groups: fresh.groups.map((g) => g[1]), lines_reidentified: lines });
    }
    return { ...(await describe(client, a.ingredient_id)), lines_reidentified: lines };
  });
  return { ...result, record_version };
}

export interface UnidentifiedName {
  declared_name: string;
  /** Declared lines printing it (every history state that declares it). */
  count: number;
  products: string[];
  suggestions: Suggestion[];
}

/**
 * The declared names the Record could not identify, most lines first: each
 * with how many lines print it, the products that declare it, and the
 * ingredients its identifiers suggest (never applied on their own).
 */
export async function listUnidentified(db: Db, opts: { limit?: number } = {}): Promise<UnidentifiedName[]> {
  const index = await loadIdentityIndex(db);
  const { rows } = await db.query<{ declared_name: string; unii: string | null; ingredient_group: string | null; forms: string[]; product_id: string; n: number }>(
    `SELECT d.declared_name, d.unii, d.ingredient_group, d.forms, h.product_id, count(*)::int AS n
       FROM declared_ingredients d JOIN history_states h ON h.state_id = d.state_id
      WHERE d.ingredient_id IS NULL
      GROUP BY 1, 2, 3, 4, 5`,
  );
  const byName = new Map<string, { printings: Map<string, number>; count: number; products: Set<string>; suggestions: Map<string, Suggestion> }>();
  for (const r of rows) {
    const key = normalizeName(r.declared_name);
    const e = byName.get(key) ?? { printings: new Map(), count: 0, products: new Set(), suggestions: new Map() };
    e.printings.set(r.declared_name, (e.printings.get(r.declared_name) ?? 0) + r.n);
    e.count += r.n;
    e.products.add(r.product_id);
    for (const s of suggestionsFor(r, index)) if (!e.suggestions.has(s.ingredient_id)) e.suggestions.set(s.ingredient_id, s);
    byName.set(key, e);
  }
  const names = [...byName.values()].map((e) => ({
    declared_name: [...e.printings.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0],
    count: e.count,
    products: [...e.products].sort(),
    suggestions: [...e.suggestions.values()],
  }));
  names.sort((a, b) => b.count - a.count || a.declared_name.localeCompare(b.declared_name));
  return opts.limit ? names.slice(0, opts.limit) : names;
}

export interface IngredientListed {
  ingredient_id: string;
  name: string;
  kind: string;
  names: string[];
  uniis: string[];
  groups: string[];
  /** Declared lines it identifies. */
  lines: number;
}

/** Every canonical ingredient with its identifiers and how many declared lines it identifies. */
export async function listIngredients(db: Db): Promise<IngredientListed[]> {
  return (await db.query<IngredientListed>(`${INGREDIENTS_LISTED} ORDER BY i.ingredient_id`)).rows;
}

/** An ingredient with its identifiers, as the verbs answer it. */
const INGREDIENTS_LISTED = `
  SELECT i.ingredient_id, i.name, i.kind,
         coalesce((SELECT array_agg(s.synonym ORDER BY s.synonym) FROM ingredient_synonyms s WHERE s.ingredient_id = i.ingredient_id), '{}') AS names,
         coalesce((SELECT array_agg(u.unii ORDER BY u.unii) FROM ingredient_uniis u WHERE u.ingredient_id = i.ingredient_id), '{}') AS uniis,
         coalesce((SELECT array_agg(g.group_name || coalesce(' as ' || g.form_name, '') ORDER BY g.group_name, g.form_norm) FROM ingredient_groups g WHERE g.ingredient_id = i.ingredient_id), '{}') AS groups,
         (SELECT count(*)::int FROM declared_ingredients d WHERE d.ingredient_id = i.ingredient_id) AS lines
    FROM ingredients i`;
