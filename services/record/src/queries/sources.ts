import type { ClientBase } from 'pg';
import { answerSourceKind } from '@evidence-record/contract';

/**
 * A source of a product and its health. The preserved bytes, their hash and
 * storage path never leave the database; only the address, when it was last
 * captured and whether it is readable do.
 */
export interface SourceRow {
  kind: 'manufacturer' | 'retailer' | 'regulator' | 'publication';
  retailer: string | null;
  url: string;
  health: 'readable' | 'unreadable';
  health_since: string;
  last_read_on: string | null;
  last_captured_on: string | null;
}

const day = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

export async function sourcesOfProduct(db: ClientBase, productId: string): Promise<SourceRow[]> {
  const { rows } = await db.query<SourceRow>({
    name: 'record-sources-of-product-stored-kind',
    text: `SELECT s.kind, s.retailer, s.url, s.health, ${day('s.health_since')} AS health_since, ${day('s.last_read_at')} AS last_read_on,
                  ${day('(SELECT max(c.observed_at) FROM captures c WHERE c.source_id = s.source_id)')} AS last_captured_on
             FROM sources s WHERE s.product_id = $1
            ORDER BY s.kind, s.source_id`,
    values: [productId],
  });
  // A DSLD label is the manufacturer's declared label; an offer page is a retailer's (decision 1008).
  return rows.map((r) => ({ ...r, kind: answerSourceKind(r.kind) }));
}

/**
 * The DSLD label versions the Record holds of a product (decision 1401): each
 * dsld_label source's label as last read, dated by DSLD, with DSLD's own
 * off-market mark. A label marked off the market is reported, never hidden.
 */
export interface LabelVersionRow {
  dsld_label_id: number;
  product_version_code: string | null;
  dsld_date: string | null;
  off_market: boolean;
  off_market_since: string | null;
  monitored: boolean;
  source_url: string;
}

export async function labelVersionsOfProduct(db: ClientBase, productId: string): Promise<LabelVersionRow[]> {
  const events = `jsonb_array_elements(coalesce(c.source_facts->'events', '[]'))`;
  const { rows } = await db.query<LabelVersionRow>({
    name: 'record-label-versions',
    text: `SELECT (c.source_facts->>'dsld_label_id')::bigint AS dsld_label_id,
                  c.source_facts->>'product_version_code' AS product_version_code,
                  coalesce(c.source_facts->>'entry_date', (SELECT min(e->>'date') FROM ${events} e WHERE e->>'type' ILIKE '%entered into dsld%')) AS dsld_date,
                  coalesce((c.source_facts->>'off_market')::boolean, false) AS off_market,
                  (SELECT min(e->>'date') FROM ${events} e WHERE e->>'type' ILIKE '%off market%') AS off_market_since,
                  (s.state = 'active' AND s.next_check_due IS NOT NULL) AS monitored,
                  s.url AS source_url
             FROM sources s
             JOIN LATERAL (SELECT source_facts FROM captures c WHERE c.source_id = s.source_id AND c.source_facts ? 'dsld_label_id'
                            ORDER BY c.capture_id DESC LIMIT 1) c ON true
            WHERE s.product_id = $1 AND s.kind = 'dsld_label'
            ORDER BY 3 NULLS LAST, 1`,
    values: [productId],
  });
  return rows;
}
