/**
 * The Record store: the one home of the Record's data. Its schema (the SQL
 * migrations beside this folder), the row types, and the queries and
 * presenters more than one service or library needs. Services and libraries
 * import it, never each other.
 */
export { migrationsDir, runMigrations } from './migrate';
export { normalizeName, words } from './names';
export * from './rows';
export { PRODUCT_IDENTITY_COLUMNS, PRODUCTS_WITH_BRANDS, productById, productsById } from './products';
