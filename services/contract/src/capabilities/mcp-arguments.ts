import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../decisions';

/** MCP argument descriptions several tools share (each module's `mcp.arguments`). */
export const productId = 'Canonical product id: prd_ followed by 12 lowercase letters or digits, as returned by products.resolve or record.search. Names are refused: resolve them first.';
export const ingredientIds = 'Up to 5 ingredient ids (ing_ followed by a lowercase slug), as named in an earlier answer.';
export const ingredientProduct = 'Canonical product id (prd_…): reads the ingredients that product declares. Give ingredient_ids, product_id, or both.';
export const pageLimit = `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`;
export const cursor = 'The next_cursor of the previous page, unchanged. Only cursors this service issued are accepted; omit it for the first page.';
