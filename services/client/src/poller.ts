import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EvidenceRecordError } from './errors';
import type { EvidenceRecordClient, Signal } from './client';

/**
 * What a poller remembers between runs. The API releases Signals in dated
 * batches and never adds one under a date a client may already have seen,
 * and `since` is exclusive: so the newest `released_at` of a completed pass,
 * passed as `since`, gets exactly the Signals released after it.
 */
export interface PollState {
  version: 1;
  /** The filters this state belongs to (a cursor is bound to its filters): one store per filter set. */
  filters: SignalFilters;
  /** The next pass asks for Signals released after this date: the newest review.released_at of the last completed pass, or the caller's starting point. */
  since: string | null;
  /**
   * An unfinished pass: the cursor of its next page, the newest and oldest
   * release it has yielded, the Signals it has yielded, and, once a cursor
   * expired, the `until` it re-reads with (the oldest release yielded).
   */
  pass: {
    cursor: string | null;
    until: string | null;
    newest_released_at: string | null;
    oldest_released_at: string | null;
    yielded: string[];
  } | null;
}

/** Where a poller keeps its state. `save` must be atomic: a crash leaves the old state or the new one. */
export interface PollStore {
  load(): Promise<PollState | null>;
  save(state: PollState): Promise<void>;
}

/** A PollStore in one JSON file, written atomically (temporary file, fsync, rename). */
export class FilePollStore implements PollStore {
  constructor(readonly path: string) {}

  async load(): Promise<PollState | null> {
    try {
      return JSON.parse(await readFile(this.path, 'utf8')) as PollState;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async save(state: PollState): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(state)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(temporary, this.path);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }
}

export interface SignalFilters {
  product_id?: string;
  brand?: string;
  dimension?: string;
  category?: string;
}

export interface PollOptions extends SignalFilters {
  /** First run only (an empty store): yield Signals released after this date (YYYY-MM-DD). Default: the whole feed. */
  since?: string;
  store: PollStore;
  /** Page size, 1 to 25; default the API's (10). */
  limit?: number;
}

const newer = (a: string | null, b: string) => (a === null || b > a ? b : a);
const older = (a: string | null, b: string) => (a === null || b < a ? b : a);

function sameFilters(a: SignalFilters, b: SignalFilters): boolean {
  const keys = ['product_id', 'brand', 'dimension', 'category'] as const;
  return keys.every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/**
 * The Signal feed as an async iterator: one pass follows `next_cursor` from
 * the newest release down to the stored starting point until it is null,
 * yielding each Signal not yielded before, then ends. Run it again later
 * (a confirmed change occurs on the order of days) to get what was released
 * since.
 *
 * State is saved before each Signal is handed over (so it is yielded at most
 * once, even if the process dies right after) and after each page (cursor and
 * newest `released_at` seen). An interrupted pass resumes from its cursor. A
 * cursor the API no longer accepts (it expires, and a free-plan pass may wait
 * a day or more for its budget) is replaced by reading again with
 * `until` = the oldest release the pass yielded: only that day is read twice
 * (its Signals already yielded are skipped), so the budget is not spent again
 * on the part of the feed already delivered.
 *
 * Refusals are thrown as EvidenceRecordError: on extraction_limit_reached,
 * wait for `budgetResetsAt` and run again; nothing already yielded repeats.
 */
export async function* pollSignals(client: EvidenceRecordClient, options: PollOptions): AsyncGenerator<Signal, void, undefined> {
  const filters: SignalFilters = {
    ...(options.product_id ? { product_id: options.product_id } : {}),
    ...(options.brand ? { brand: options.brand } : {}),
    ...(options.dimension ? { dimension: options.dimension } : {}),
    ...(options.category ? { category: options.category } : {}),
  };
  const { store } = options;
  const state: PollState = (await store.load()) ?? { version: 1, filters, since: options.since ?? null, pass: null };
  if (!sameFilters(state.filters, filters)) {
    throw new Error('this poll store belongs to other filters (a cursor is bound to its filters): use one store per filter set');
  }
  state.pass ??= { cursor: null, until: null, newest_released_at: null, oldest_released_at: null, yielded: [] };
  const pass = state.pass;
  const yielded = new Set(pass.yielded);
  let restarted = false;

  for (;;) {
    let page;
    try {
      page = await client.call('list_signal_changes', {
        query: {
          ...filters,
          ...(state.since ? { since: state.since } : {}),
          ...(pass.until ? { until: pass.until } : {}),
          ...(options.limit ? { limit: options.limit } : {}),
          ...(pass.cursor ? { cursor: pass.cursor } : {}),
        },
      });
    } catch (err) {
      // An expired cursor: read on from the oldest release yielded (inclusive); what was already yielded is skipped.
      if (err instanceof EvidenceRecordError && err.code === 'invalid_request' && pass.cursor && !restarted) {
        restarted = true;
        pass.cursor = null;
        pass.until = pass.oldest_released_at;
        await store.save(state);
        continue;
      }
      throw err;
    }
    for (const signal of page.answer.signals ?? []) {
      if (yielded.has(signal.signal_id)) continue;
      yielded.add(signal.signal_id);
      pass.yielded.push(signal.signal_id);
      pass.newest_released_at = newer(pass.newest_released_at, signal.review.released_at);
      pass.oldest_released_at = older(pass.oldest_released_at, signal.review.released_at);
      await store.save(state);
      yield signal;
    }
    pass.cursor = page.answer.next_cursor ?? null;
    await store.save(state);
    if (pass.cursor === null) break;
  }

  // The pass reached the bottom: the next one asks for what was released after its newest Signal.
  if (pass.newest_released_at !== null) state.since = newer(state.since, pass.newest_released_at);
  state.pass = null;
  await store.save(state);
}
