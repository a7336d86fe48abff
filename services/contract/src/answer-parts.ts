import { z } from 'zod';

/**
 * The building blocks of the answer objects (answers.ts) that more than one
 * capability's shape uses; each capability's own shapes are in its module
 * under capabilities/. Every object is open (see answers.ts).
 */
export const date = z.iso.date();
export const dateTime = z.iso.datetime({ offset: true });
export const count = z.number().int().min(0);
export const open = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

/** A share of a named cohort: every proportion names its denominator. */
export const Proportion = open({
  share: z.number().nullable().describe('numerator / denominator rounded to 4 places; null when the denominator is 0'),
  numerator: count,
  denominator: count,
  cohort: z.string().describe('what the denominator counts'),
}).meta({ id: 'Proportion' });

export const FromProductLabel = open({ product_id: z.string(), state_id: z.string().nullable() })
  .nullable()
  .describe('when asked by product_id: the label state whose declared ingredients were read');

/** Entries a curator retired (decision 1601): kept in the Record, named here instead of served as current. */
export const RetiredEntries = z
  .array(
    open({
      entry_id: z.string(),
      ingredient_id: z.string(),
      title: z.string(),
      authority: z.string().nullable(),
      date: z.string().nullable(),
      retired_on: date,
      note: z.string().describe('the public reason it was retired'),
    }),
  )
  .describe('entries the Record held for these ingredients and retired, with the date and the reason; not served as current context');

export const editionStatus = z.string().describe('open or closed (a closed edition never changes)');

export const LedgerEditionEntry = open({
  edition_id: z.string(),
  period: z.string().describe('YYYY-MM'),
  status: editionStatus,
  data_as_of: date,
  count_released: count,
}).meta({ id: 'LedgerEditionEntry' });

export const WatchItem = open({
  product_id: z.string(),
  name: z.string(),
  brand_name: z.string(),
  watched_since: dateTime,
  monitoring_state: z.string().describe('monitored, not_monitored or source_unreadable (open enum)'),
  currently_unreadable: z.boolean().nullable(),
  unreadable_since: dateTime.nullable(),
  last_read_at: dateTime.nullable(),
  last_checked_at: dateTime.nullable(),
  next_check_due: dateTime.nullable(),
  check_overdue: z.boolean().nullable(),
  check_interval_hours: z.number().int(),
}).meta({ id: 'WatchItem' });
