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
