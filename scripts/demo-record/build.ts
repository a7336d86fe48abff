import { brandBySlug, brands, retailerBySlug, retailers, type RetailerSlug } from './brands';
import { addDays, at, daysBetween, weekday } from './dates';
import { openEditionRows } from './editions';
import { productId, sha256Hex, signalId, stableId, stableInt, stateId } from './ids';
import { ingredientForDeclaredName } from './ingredients';
import { isBlend, type LabelLine, type Serving, type StateSpec } from './label';
import { checkTime, gapOutcome, retailerFirstRead, retailerReadIsEmpty, unreadableSince, weeklyFrom } from './monitoring';
import { normalizeName } from '@evidence-record/record-store';
import { listings as explicitListings, promotions, SUBSCRIPTION_RETAILER, SUBSCRIPTION_SHARE, unspecifiedPrices, type ListingSpec } from './prices';
import { products, type ProductSpec } from './products';
import { regulatory } from './regulatory';
import { research } from './research';
import { extraCandidates, REVIEWERS, reviewExceptions } from './signals';
import { LATEST_READ, RELEASE_WEEKDAY, REVIEW_DAYS } from './timeline';

/**
 * Builds the whole demo Record in memory, as rows per table, from the data
 * modules. Pure and deterministic: same rows, same ids, every time. The
 * seed inserts these rows; the tests and the edition documents read them.
 */
export type Row = Record<string, string | number | boolean | null>;

/**
 * The demo Record's rows. Ingredients are not among them: the ingredient
 * catalogue is reference data every deployment has (decision 1500), applied
 * by the seed before these rows, and the demo's declared lines are identified
 * by its name rule.
 */
export interface DemoRecord {
  brands: Row[];
  products: Row[];
  product_aliases: Row[];
  sources: Row[];
  captures: Row[];
  history_states: Row[];
  /** Later captures that read the same label as a state (the first one is history_states.capture_id). */
  state_readings: Row[];
  declared_blends: Row[];
  declared_ingredients: Row[];
  price_observations: Row[];
  candidates: Row[];
  release_batches: Row[];
  signals: Row[];
  signal_corrections: Row[];
  research_context: Row[];
  regulatory_records: Row[];
  ledger_editions: Row[];
  monitoring_spans: Row[];
  monitoring_checks: Row[];
}

/** Insert order: every table after the tables it references. */
export const tableOrder: (keyof DemoRecord)[] = [
  'brands', 'products', 'product_aliases', 'sources', 'captures',
  'history_states', 'state_readings', 'declared_blends', 'declared_ingredients', 'price_observations', 'candidates',
  'release_batches', 'signals', 'signal_corrections', 'research_context', 'regulatory_records',
  'ledger_editions', 'monitoring_spans', 'monitoring_checks',
];

interface ResolvedState extends StateSpec {
  state_id: string;
  captureId: number | null;
}

interface ResolvedProduct {
  spec: ProductSpec;
  product_id: string;
  states: ResolvedState[];
  manufacturerSource: number | null;
  listings: (ListingSpec & { sourceId: number })[];
  spans: { from: string; to: string | null }[];
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const amountText = (amount: number | null, unit: string | null) => (amount === null ? 'named without an amount' : `${amount} ${unit}`);

function lineName(l: LabelLine): string {
  return isBlend(l) ? l.blend : l.declaredName;
}

/** What changed between two labels, in the label's own words; null when nothing did. */
export function describeFormulaChange(before: LabelLine[], after: LabelLine[]): string | null {
  const parts: string[] = [];
  const old = new Map(before.map((l) => [lineName(l), l]));
  const next = new Map(after.map((l) => [lineName(l), l]));
  for (const l of after) {
    const o = old.get(lineName(l));
    if (!o) {
      parts.push(isBlend(l) ? `${l.blend} (proprietary blend, ${amountText(l.total, l.unit)}) added` : l.amount === null ? `${l.declaredName} added (named without an amount)` : `${l.declaredName} ${l.amount} ${l.unit} added`);
      continue;
    }
    if (isBlend(l) && isBlend(o)) {
      if (l.total !== o.total || l.unit !== o.unit) parts.push(`${l.blend} (proprietary blend total): ${amountText(o.total, o.unit)} → ${amountText(l.total, l.unit)}`);
      for (const m of l.members) if (!o.members.includes(m)) parts.push(`${m} added to ${l.blend}`);
      for (const m of o.members) if (!l.members.includes(m)) parts.push(`${m} removed from ${l.blend}`);
    } else if (!isBlend(l) && !isBlend(o)) {
      if (l.amount !== o.amount || l.unit !== o.unit) parts.push(`${l.declaredName}: ${amountText(o.amount, o.unit)} → ${amountText(l.amount, l.unit)}`);
    }
  }
  for (const l of before) if (!next.has(lineName(l))) parts.push(`${lineName(l)} removed`);
  return parts.length ? `${parts.join('; ')}.` : null;
}

export function describeServingChange(before: Serving, after: Serving): string | null {
  const parts: string[] = [];
  if (before.size !== after.size || before.unit !== after.unit) parts.push(`Serving size: ${before.size} ${before.unit} → ${after.size} ${after.unit}`);
  if (before.servingsPerContainer !== after.servingsPerContainer) parts.push(`Servings per container: ${before.servingsPerContainer} → ${after.servingsPerContainer}`);
  return parts.length ? `${parts.join('; ')}.` : null;
}

/** First release Tuesday at least REVIEW_DAYS after the window closed. */
export function defaultReleaseDate(windowEnd: string): string {
  let d = addDays(windowEnd, REVIEW_DAYS);
  while (weekday(d) !== RELEASE_WEEKDAY) d = addDays(d, 1);
  return d;
}

function latestReadFrom(from: string): string {
  return addDays(from, Math.floor(daysBetween(from, LATEST_READ) / 7) * 7);
}

function listPriceOn(listing: ListingSpec, date: string): number {
  let price = listing.list[0]![1];
  for (const [from, cents] of listing.list) if (from <= date) price = cents;
  return price;
}

function defaultListings(p: ProductSpec): ListingSpec[] {
  const explicit = explicitListings.filter((l) => l.product === p.slug);
  if (explicit.length || p.depth === 'REGISTERED') return explicit;
  const base = p.form === 'capsule' ? 2499 + 100 * stableInt(`${p.slug}:price`, 15) : 3499 + 100 * stableInt(`${p.slug}:price`, 21);
  const first = retailers[stableInt(p.slug, 3)]!.slug as RetailerSlug;
  const out: ListingSpec[] = [{ product: p.slug, retailer: first, list: [['2026-01-01', base]] }];
  if (p.depth === 'TRACKED' && stableInt(`${p.slug}:second`, 2) === 0) {
    const second = retailers[(stableInt(p.slug, 3) + 1) % 3]!.slug as RetailerSlug;
    out.push({ product: p.slug, retailer: second, list: [['2026-01-01', base + 200]] });
  }
  return out;
}

export function buildDemoRecord(): DemoRecord {
  const rec: DemoRecord = {
    brands: [], products: [], product_aliases: [], sources: [], captures: [],
    history_states: [], state_readings: [], declared_blends: [], declared_ingredients: [], price_observations: [], candidates: [],
    release_batches: [], signals: [], signal_corrections: [], research_context: [], regulatory_records: [],
    ledger_editions: [], monitoring_spans: [], monitoring_checks: [],
  };

  // ------------------------------------------------------------------ catalogue
  for (const b of brands) rec.brands.push({ brand_id: b.brand_id, name: b.name, name_norm: normalizeName(b.name), is_demo: true });

  // ------------------------------------------------------------------ products, sources
  let nextSource = 1;
  const resolved: ResolvedProduct[] = products.map((spec) => {
    const brand = brandBySlug(spec.brand);
    const pid = productId(spec.slug);
    rec.products.push({
      product_id: pid, brand_id: brand.brand_id, name: spec.name, name_norm: normalizeName(spec.name), category: 'pre-workout',
      form: spec.form, depth_class: spec.depth, retired_on: spec.retired?.on ?? null, retired_note: spec.retired?.note ?? null,
      is_demo: true, created_at: at(spec.states[0]!.from, '00:00:00'),
    });
    const aliasNorms = new Set<string>();
    for (const alias of spec.aliases) {
      const norm = normalizeName(alias);
      if (aliasNorms.has(norm)) throw new Error(`${spec.slug}: duplicate alias ${alias}`);
      aliasNorms.add(norm);
      rec.product_aliases.push({ alias, alias_norm: norm, product_id: pid });
    }
    const states: ResolvedState[] = spec.states.map((s) => ({
      ...s,
      to: s.to === 'latest' ? latestReadFrom(s.from) : s.to,
      state_id: stateId(spec.slug, s.key),
      captureId: null,
    }));
    const pathName = normalizeName(spec.name).replace(/ /g, '-');
    let manufacturerSource: number | null = null;
    if (spec.depth !== 'REGISTERED' || spec.slug === 'vantorra-night-sprint') {
      manufacturerSource = nextSource++;
      const announcement = spec.depth === 'REGISTERED';
      rec.sources.push({
        source_id: manufacturerSource, product_id: pid, kind: 'manufacturer', retailer: null,
        url: `https://${brand.site}/${announcement ? 'news' : 'products'}/${pathName}`,
        health: 'readable', health_since: null, last_read_at: null,
      });
    }
    const productListings = defaultListings(spec).map((l) => {
      const sourceId = nextSource++;
      const r = retailerBySlug(l.retailer);
      rec.sources.push({
        source_id: sourceId, product_id: pid, kind: 'retailer', retailer: r.name,
        url: `https://${r.site}/p/${spec.slug}`, health: 'readable', health_since: null, last_read_at: null,
      });
      return { ...l, sourceId };
    });
    for (const u of unspecifiedPrices.filter((x) => x.product === spec.slug)) {
      if (productListings.some((l) => l.retailer === u.retailer)) continue;
      const sourceId = nextSource++;
      const r = retailerBySlug(u.retailer);
      rec.sources.push({
        source_id: sourceId, product_id: pid, kind: 'retailer', retailer: r.name,
        url: `https://${r.site}/p/${spec.slug}`, health: 'readable', health_since: null, last_read_at: null,
      });
      productListings.push({ product: spec.slug, retailer: u.retailer, list: [], sourceId });
    }
    const spans =
      spec.depth === 'TRACKED'
        ? (spec.monitoring ?? [{ from: states[0]!.from, to: spec.retired?.on }]).map((s) => ({ from: s.from, to: s.to ?? null }))
        : [];
    return { spec, product_id: pid, states, manufacturerSource, listings: productListings, spans };
  });
  const byId = new Map(resolved.map((r) => [r.product_id, r]));
  const bySlug = new Map(resolved.map((r) => [r.spec.slug, r]));
  const sourceRow = (id: number) => rec.sources.find((s) => s.source_id === id)!;

  // ------------------------------------------------------------------ monitoring and captures
  let nextCapture = 1;
  const checks: Row[] = [];
  const readings: Row[] = [];
  const addCapture = (sourceId: number, p: ResolvedProduct, state: ResolvedState, date: string, observedAt: string) => {
    const id = nextCapture++;
    rec.captures.push({
      capture_id: id, source_id: sourceId, observed_at: observedAt,
      content_sha256: sha256Hex(`demo capture:${p.spec.slug}:${state.key}:${date}`),
      storage_path: `preserved/${p.product_id}/${date}-${sourceId}.html.zst`,
    });
    if (state.from === date && state.captureId === null) state.captureId = id;
    else readings.push({ state_id: state.state_id, capture_id: id });
    const src = sourceRow(sourceId);
    if (!src.health_since) src.health_since = observedAt;
    src.last_read_at = observedAt;
    return id;
  };
  const inSpan = (p: ResolvedProduct, date: string) => p.spans.some((s) => s.from <= date && (s.to === null || date <= s.to));

  for (const p of resolved) {
    rec.monitoring_spans.push(...p.spans.map((s) => ({ product_id: p.product_id, started_on: s.from, ended_on: s.to })));
    if (p.spec.depth !== 'TRACKED') {
      const s = p.states[0]!;
      const source = p.manufacturerSource ?? p.listings[0]!.sourceId;
      addCapture(source, p, s, s.from, checkTime('manufacturer', p.spec.slug, s.from));
      continue;
    }
    const mSource = p.manufacturerSource!;
    let failedBefore = false;
    const check = (date: string, outcome: 'valid' | 'empty' | 'unreadable', state: ResolvedState | null) => {
      if (!inSpan(p, date)) return;
      const when = checkTime('manufacturer', p.spec.slug, date);
      checks.push({ product_id: p.product_id, source_id: mSource, checked_at: when, outcome, recovered: outcome === 'valid' && failedBefore });
      failedBefore = outcome !== 'valid';
      if (outcome === 'valid' && state) addCapture(mSource, p, state, date, when);
      if (outcome === 'unreadable' && p.spec.slug === unreadableSince.product && date > unreadableSince.lastGoodRead) {
        const src = sourceRow(mSource);
        if (src.health !== 'unreadable') {
          src.health = 'unreadable';
          src.health_since = when;
        }
      }
    };
    p.states.forEach((s, i) => {
      const dates = weeklyFrom(s.from, s.to);
      if (dates[dates.length - 1] !== s.to) dates.push(s.to);
      for (const d of dates) check(d, 'valid', s);
      const next = p.states[i + 1];
      if (next) {
        for (let d = addDays(s.to, 7); d < next.from; d = addDays(d, 7)) check(d, gapOutcome(p.spec.slug, d), null);
      } else if (p.spec.retired) {
        for (let d = addDays(s.to, 7); d <= p.spec.retired.on; d = addDays(d, 7)) check(d, 'empty', null);
      } else if (p.spec.slug === unreadableSince.product) {
        for (let d = addDays(s.to, 7); d <= LATEST_READ; d = addDays(d, 7)) check(d, 'unreadable', null);
      }
    });
  }

  rec.state_readings = readings;

  // ------------------------------------------------------------------ history states and declared labels
  let nextBlend = 1;
  for (const p of resolved) {
    for (const s of p.states) {
      if (s.captureId === null) throw new Error(`${p.spec.slug}/${s.key}: no capture on the state's first day`);
      rec.history_states.push({
        state_id: s.state_id, product_id: p.product_id, capture_id: s.captureId, observed_from: s.from, observed_to: s.to,
        classification: s.classification, serving_size: s.serving?.size ?? null, serving_unit: s.serving?.unit ?? null,
        servings_per_container: s.serving?.servingsPerContainer ?? null, serving_description: s.serving?.description ?? null,
        note: s.note ?? null,
      });
      let position = 1;
      for (const l of s.label ?? []) {
        if (isBlend(l)) {
          const blendId = nextBlend++;
          rec.declared_blends.push({ blend_id: blendId, state_id: s.state_id, name: l.blend, total_amount: l.total, total_unit: l.unit });
          for (const m of l.members) {
            const ing = ingredientForDeclaredName(m);
            if (!ing) throw new Error(`${p.spec.slug}: blend member ${m} is not in the catalogue`);
            rec.declared_ingredients.push({ state_id: s.state_id, position: position++, ingredient_id: ing, declared_name: m, amount: null, unit: null, blend_id: blendId, identified_by: 'name' });
          }
        } else {
          const ing = ingredientForDeclaredName(l.declaredName);
          if (!ing) throw new Error(`${p.spec.slug}: ${l.declaredName} is not in the catalogue`);
          rec.declared_ingredients.push({ state_id: s.state_id, position: position++, ingredient_id: ing, declared_name: l.declaredName, amount: l.amount, unit: l.unit, blend_id: null, identified_by: 'name' });
        }
      }
    }
  }

  // ------------------------------------------------------------------ prices (and retailer checks)
  const listObservations = new Map<string, { date: string; cents: number; row: Row }[]>();
  const stateOn = (p: ResolvedProduct, date: string) => p.states.find((s) => s.from <= date && date <= s.to) ?? null;
  const observe = (p: ResolvedProduct, sourceId: number, retailer: string, date: string, cents: number, basis: string) => {
    const st = stateOn(p, date);
    const row: Row = {
      product_id: p.product_id, source_id: sourceId, retailer, observed_at: date, price_cents: cents, price_basis: basis,
      servings_per_container: st?.serving?.servingsPerContainer ?? null, state_id: st?.state_id ?? null,
    };
    rec.price_observations.push(row);
    return row;
  };
  for (const p of resolved) {
    for (const l of p.listings) {
      const r = retailerBySlug(l.retailer);
      const key = `${p.spec.slug}:${l.retailer}`;
      const promos = promotions.filter((x) => x.product === p.spec.slug && x.retailer === l.retailer);
      const promoOn = (d: string) => promos.find((x) => x.from <= d && d <= x.to);
      const lists: { date: string; cents: number; row: Row }[] = [];
      listObservations.set(key, lists);
      for (const u of unspecifiedPrices.filter((x) => x.product === p.spec.slug && x.retailer === l.retailer)) {
        observe(p, l.sourceId, r.name, u.on, u.cents, 'unspecified');
        sourceRow(l.sourceId).health_since = at(u.on, '09:00:00');
        sourceRow(l.sourceId).last_read_at = at(u.on, '09:00:00');
      }
      if (!l.list.length) continue;
      if (p.spec.depth === 'CAPTURED') {
        const d = p.states[0]!.from;
        lists.push({ date: d, cents: listPriceOn(l, d), row: observe(p, l.sourceId, r.name, d, listPriceOn(l, d), 'list') });
        sourceRow(l.sourceId).health_since = at(d, '09:00:00');
        sourceRow(l.sourceId).last_read_at = at(d, '09:00:00');
        continue;
      }
      const end = p.spec.retired?.on ?? LATEST_READ;
      let failedBefore = false;
      for (const d of weeklyFrom(retailerFirstRead[l.retailer]!, end)) {
        if (d < p.spans[0]!.from || !inSpan(p, d)) continue;
        const when = checkTime('retailer', key, d);
        const empty = retailerReadIsEmpty(key, d);
        checks.push({ product_id: p.product_id, source_id: l.sourceId, checked_at: when, outcome: empty ? 'empty' : 'valid', recovered: !empty && failedBefore });
        failedBefore = empty;
        if (empty) continue;
        const src = sourceRow(l.sourceId);
        if (!src.health_since) src.health_since = when;
        src.last_read_at = when;
        const promo = promoOn(d);
        if (promo) {
          observe(p, l.sourceId, r.name, d, promo.cents, 'promotional');
          continue;
        }
        const cents = listPriceOn(l, d);
        lists.push({ date: d, cents, row: observe(p, l.sourceId, r.name, d, cents, 'list') });
        if (l.retailer === SUBSCRIPTION_RETAILER) observe(p, l.sourceId, r.name, d, Math.round(cents * SUBSCRIPTION_SHARE), 'subscription');
      }
      // A price tracker also reads listings every few days while a sale runs.
      for (const promo of promos) {
        const weekly = new Set(weeklyFrom(retailerFirstRead[l.retailer]!, end));
        for (let d = promo.from; d <= promo.to; d = addDays(d, 3)) if (!weekly.has(d)) observe(p, l.sourceId, r.name, d, promo.cents, 'promotional');
      }
    }
  }
  rec.price_observations.sort((a, b) =>
    String(a.observed_at).localeCompare(String(b.observed_at)) || String(a.product_id).localeCompare(String(b.product_id)) ||
    String(a.retailer).localeCompare(String(b.retailer)) || String(a.price_basis).localeCompare(String(b.price_basis)));
  rec.price_observations.forEach((o, i) => (o.observation_id = i + 1));

  checks.sort((a, b) => String(a.checked_at).localeCompare(String(b.checked_at)) || Number(a.source_id) - Number(b.source_id));
  rec.monitoring_checks = checks.map((c, i) => ({ check_id: i + 1, ...c }));
  rec.monitoring_spans = rec.monitoring_spans.map((s, i) => ({ span_id: i + 1, ...s }));

  // ------------------------------------------------------------------ candidates and Signals
  interface Draft {
    key: string;
    p: ResolvedProduct;
    dimension: 'formula' | 'serving' | 'price';
    before: string | null;
    after: string | null;
    windowStart: string;
    windowEnd: string;
    summary: string;
    outcome: 'open' | 'released' | 'refused' | 'withdrawn_duplicate';
    releaseOn: string | null;
    exact: string | null;
    reviewNote: string | null;
    /** Price changes: the two list-price observations compared. */
    prices?: { before: Row; after: Row };
  }
  const drafts: Draft[] = [];
  const usedExceptions = new Set<string>();
  const planned = (key: string, p: ResolvedProduct, dimension: Draft['dimension'], before: string | null, after: string | null, ws: string, we: string, summary: string): Draft => {
    const ex = reviewExceptions[key];
    if (ex) usedExceptions.add(key);
    const open = ex?.outcome === 'open';
    const releaseOn = open ? null : (ex?.releaseOn ?? defaultReleaseDate(we));
    if (releaseOn && releaseOn > LATEST_READ) throw new Error(`${key}: would be released on ${releaseOn}, after the newest read; mark it open`);
    return {
      key, p, dimension, before, after, windowStart: ws, windowEnd: we, summary,
      outcome: open ? 'open' : 'released', releaseOn, exact: ex?.exactChangeDate?.date ?? null,
      reviewNote: ex?.reviewNote ?? null,
    };
  };
  for (const p of resolved) {
    for (let i = 1; i < p.states.length; i++) {
      const a = p.states[i - 1]!;
      const b = p.states[i]!;
      if (a.classification !== 'comparable' || b.classification !== 'comparable') continue;
      const formula = describeFormulaChange(a.label ?? [], b.label ?? []);
      if (formula) drafts.push(planned(`${p.spec.slug}:formula:${b.key}`, p, 'formula', a.state_id, b.state_id, a.to, b.from, formula));
      const servingChange = a.serving && b.serving ? describeServingChange(a.serving, b.serving) : null;
      if (servingChange) drafts.push(planned(`${p.spec.slug}:serving:${b.key}`, p, 'serving', a.state_id, b.state_id, a.to, b.from, servingChange));
    }
    for (const l of p.listings) {
      const obs = listObservations.get(`${p.spec.slug}:${l.retailer}`) ?? [];
      for (let i = 1; i < l.list.length; i++) {
        const [from, cents] = l.list[i]!;
        const prev = [...obs].reverse().find((o) => o.date < from);
        const next = obs.find((o) => o.date >= from);
        if (!prev || !next) throw new Error(`${p.spec.slug}: list change on ${from} at ${l.retailer} is not observed on both sides`);
        const r = retailerBySlug(l.retailer);
        drafts.push({
          ...planned(`${p.spec.slug}:price:${l.retailer}:${from}`, p, 'price', null, null, prev.date, next.date,
            `List price at ${r.name}: ${money(prev.cents)} → ${money(cents)} per container.`),
          prices: { before: prev.row, after: next.row },
        });
      }
    }
  }
  for (const x of extraCandidates) {
    const p = bySlug.get(x.product)!;
    drafts.push({
      key: x.key, p, dimension: x.dimension,
      before: x.beforeState ? stateId(x.product, x.beforeState) : null,
      after: x.afterState ? stateId(x.product, x.afterState) : null,
      windowStart: x.windowStart, windowEnd: x.windowEnd, summary: x.summary, outcome: x.outcome,
      releaseOn: x.releaseOn ?? null, exact: null, reviewNote: x.reviewNote,
    });
  }
  for (const key of Object.keys(reviewExceptions)) if (!usedExceptions.has(key)) throw new Error(`review exception ${key} matches no candidate`);

  drafts.sort((a, b) => a.windowEnd.localeCompare(b.windowEnd) || a.key.localeCompare(b.key));
  const releaseDates = [...new Set(drafts.map((d) => d.releaseOn).filter((d): d is string => d !== null))].sort();
  const batchOf = new Map(releaseDates.map((d, i) => [d, i + 1]));
  rec.release_batches = releaseDates.map((d, i) => ({ batch_id: i + 1, release_date: d, released_at: at(d, '15:00:00'), released_by: 'demo-curator' }));

  drafts.forEach((d, i) => {
    const candidateId = i + 1;
    const approved = d.outcome === 'released' || d.outcome === 'withdrawn_duplicate';
    const reviewedAt = approved ? at(addDays(d.releaseOn!, -1), '16:00:00') : d.outcome === 'refused' ? at(addDays(d.windowEnd, 3), '16:00:00') : null;
    if (d.exact && !(d.windowStart <= d.exact && d.exact <= d.windowEnd)) throw new Error(`${d.key}: exact change date outside its window`);
    rec.candidates.push({
      candidate_id: candidateId, product_id: d.p.product_id, dimension: d.dimension, before_state_id: d.before, after_state_id: d.after,
      window_start: d.windowStart, window_end: d.windowEnd, exact_change_date: d.exact, summary: d.summary,
      before_price_id: d.prices ? (d.prices.before.observation_id as number) : null,
      after_price_id: d.prices ? (d.prices.after.observation_id as number) : null,
      opened_at: at(addDays(d.windowEnd, 1), '10:00:00'),
      status: d.outcome === 'open' ? 'open' : d.outcome === 'refused' ? 'refused' : 'approved',
      reviewer: d.outcome === 'open' ? null : REVIEWERS[i % REVIEWERS.length]!,
      review_note: d.outcome === 'open' ? null : (d.reviewNote ?? 'Both captures read line by line; the declared change is on the label.'),
      reviewed_at: reviewedAt,
    });
    if (!approved) return;
    const sid = signalId(d.key);
    const ex = reviewExceptions[d.key];
    const extra = extraCandidates.find((x) => x.key === d.key);
    const status = extra?.withdrawal ? 'withdrawn' : ex?.correction ? 'corrected' : 'released';
    rec.signals.push({
      signal_id: sid, candidate_id: candidateId, product_id: d.p.product_id, dimension: d.dimension,
      before_state_id: d.before, after_state_id: d.after, window_start: d.windowStart, window_end: d.windowEnd,
      exact_change_date: d.exact, summary: d.summary, batch_id: batchOf.get(d.releaseOn!)!, released_on: d.releaseOn, status,
      before_price_id: d.prices ? (d.prices.before.observation_id as number) : null,
      after_price_id: d.prices ? (d.prices.after.observation_id as number) : null,
    });
    if (ex?.correction) {
      rec.signal_corrections.push({
        signal_id: sid, kind: 'correction', recorded_on: ex.correction.recordedOn,
        public_note: `${ex.correction.publicNote} First published summary: "${ex.correction.firstSummary}"`,
        operator_note: ex.correction.operatorNote, recorded_at: at(ex.correction.recordedOn, '11:00:00'),
      });
    }
    if (extra?.withdrawal) {
      const original = signalId(extra.duplicateOf!);
      rec.signal_corrections.push({
        signal_id: sid, kind: 'withdrawal', recorded_on: extra.withdrawal.recordedOn,
        public_note: `${extra.withdrawal.publicNote} The Signal that stands is ${original}.`,
        operator_note: extra.withdrawal.operatorNote, recorded_at: at(extra.withdrawal.recordedOn, '11:00:00'),
      });
    }
  });
  rec.signals.sort((a, b) => String(a.released_on).localeCompare(String(b.released_on)) || String(a.signal_id).localeCompare(String(b.signal_id)));
  rec.signal_corrections.sort((a, b) => String(a.recorded_on).localeCompare(String(b.recorded_on)));
  rec.signal_corrections = rec.signal_corrections.map((c, i) => ({ correction_id: i + 1, ...c }));

  // ------------------------------------------------------------------ research and regulatory
  // Entry ids are stable (a curator names them to correct or retire an entry, decision 1601); dates are the year cited.
  rec.research_context = research.map((r, i) => ({
    research_id: i + 1, entry_id: `rsc_${stableId('research', String(i + 1))}`, ingredient_id: r.ingredient, range_low: r.rangeLow, range_high: r.rangeHigh, range_unit: r.rangeUnit,
    range_basis: r.rangeBasis, population: r.population, evidence: r.evidence, reference_title: r.title, reference_year: r.year,
    reference_kind: r.kind, reference_url: null, authority: r.authority, dated: String(r.year), added_by: 'demo Record seed',
  }));
  rec.regulatory_records = regulatory.map((r, i) => ({
    regulatory_id: i + 1, entry_id: `reg_${stableId('regulatory', String(i + 1))}`, ingredient_id: r.ingredient, record_kind: r.kind, authority: r.authority, year: r.year, title: r.title,
    what_it_is: r.whatItIs, is_caution: r.isCaution, reference_title: r.referenceTitle, reference_url: null, dated: String(r.year), added_by: 'demo Record seed',
  }));

  // ------------------------------------------------------------------ ledger editions
  rec.ledger_editions = openEditionRows();

  assertConsistent(rec, byId);
  return rec;
}

function assertConsistent(rec: DemoRecord, byId: Map<string, ResolvedProduct>): void {
  const unique = (rows: Row[], key: string) => {
    const seen = new Set(rows.map((r) => r[key]));
    if (seen.size !== rows.length) throw new Error(`duplicate ${key}`);
  };
  unique(rec.products, 'product_id');
  unique(rec.history_states, 'state_id');
  unique(rec.signals, 'signal_id');
  // A declared 0 is an amount (decision 1007); undisclosed is null. Neither is ever negative, and an amount carries its unit.
  for (const d of rec.declared_ingredients) if (d.amount !== null && (Number(d.amount) < 0 || d.unit === null)) throw new Error(`${d.declared_name}: a declared amount is never negative and always has a unit`);
  for (const s of rec.sources) if (!s.health_since) throw new Error(`source ${s.source_id} of ${byId.get(String(s.product_id))?.spec.slug} was never read`);
}
