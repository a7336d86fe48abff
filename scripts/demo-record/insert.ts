import type pg from 'pg';

/** Postgres allows at most 65535 bind parameters in one statement. */
const MAX_PARAMS = 60_000;

/**
 * Inserts rows with multi-row parameterised INSERT statements, as few as the
 * parameter limit allows. Columns come from the first row; every row must
 * have the same keys.
 */
export async function insertRows(client: pg.ClientBase, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      const placeholders = columns.map((c) => {
        if (!(c in row)) throw new Error(`${table}: row without column ${c}`);
        values.push(row[c]);
        return `$${values.length}`;
      });
      return `(${placeholders.join(',')})`;
    });
    await client.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ${tuples.join(',')}`, values);
  }
}

/** After explicit ids: move each serial sequence past the highest id, so later inserts do not collide. */
export async function advanceSequence(client: pg.ClientBase, table: string, column: string): Promise<void> {
  await client.query(
    `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`,
    [table, column],
  );
}
