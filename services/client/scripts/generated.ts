import { HEALTH_PATH, OPENAPI_PATH, buildOpenApiDocument, capabilityList } from '@evidence-record/contract';
import openapiTS, { astToString } from 'openapi-typescript';

const banner = (how: string) =>
  `// Generated from the contract (services/contract) by services/client/scripts/generate.ts ${how}.\n` +
  `// A build artifact: not committed, written by \`npm ci\` (the root package's prepare script) and by \`npm test\`.\n` +
  `// Do not edit: run npx tsx services/client/scripts/generate.ts after a contract change.\n`;

/** The OpenAPI document exactly as the gateway serves it (server '/'). */
function document() {
  return buildOpenApiDocument('/');
}

/**
 * The committed files, by path from this package: the document, as the
 * gateway serves it, kept in the repository so that a reader, Redocly's lint
 * and a client in another language find it; and the load tests' table of
 * operations, which k6 loads by path from a plain clone. A test regenerates
 * both and compares.
 */
export function committedDocument(): Record<string, string> {
  return { 'openapi.json': `${JSON.stringify(document(), null, 2)}\n`, '../../load-tests/lib/capabilities.ts': loadTestOperations() };
}

/**
 * The k6 scenarios' table of operations (load-tests/lib/capabilities.ts):
 * health, the document and every capability of the contract, with method,
 * path and MCP tool. Self-contained (no imports, ES2020), since k6 cannot
 * load the contract's zod schemas.
 */
function loadTestOperations(): string {
  const ops: Record<string, { method: string; path: string; tool: string | null }> = {
    health: { method: 'GET', path: HEALTH_PATH, tool: null },
    openapi: { method: 'GET', path: OPENAPI_PATH, tool: null },
  };
  for (const cap of capabilityList) ops[cap.name] = { method: cap.method, path: cap.path.replace(/:([a-z_]+)/g, '{$1}'), tool: cap.tool };
  return (
    `// Generated from the contract (services/contract) by services/client/scripts/generate.ts --document.\n` +
    `// Committed, and self-contained (no imports, ES2020), so that k6 loads it by path from a plain clone and\n` +
    `// bundle.sh inlines it; a test fails while it is stale. Do not edit: run\n` +
    `// npx tsx services/client/scripts/generate.ts --document after a contract change.\n\n` +
    `/** Every operation by name (a capability, health, openapi): method, path with {params}, MCP tool. */\n` +
    `export const operations = ${JSON.stringify(ops, null, 2).replace(/"([a-z_]+)":/g, '$1:').replace(/"/g, "'")} as const;\n`
  );
}

/**
 * The client's generated TypeScript, by path inside the package: the types
 * openapi-typescript derives from the document and the operation route
 * table. They are build artifacts (gitignored), generated from the contract
 * wherever they are needed, so generated code never sits in the tracked
 * tree; a test proves the generation is deterministic.
 */
export async function generatedSources(): Promise<Record<string, string>> {
  const doc = document();
  const ast = await openapiTS(doc as never);
  const routes: Record<string, { method: string; path: string }> = {};
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
    for (const [method, op] of Object.entries(item)) routes[op.operationId] = { method: method.toUpperCase(), path };
  }
  const routesTs =
    `${banner('from the document\'s paths')}` +
    `/** Method and path of every operation, by operationId (the capability name). */\n` +
    `export const routes = ${JSON.stringify(routes, null, 2).replace(/"([a-z_]+)":/g, '$1:').replace(/"/g, "'")} as const;\n`;
  return {
    'src/routes.ts': routesTs,
    'src/schema.ts': `${banner('with openapi-typescript')}${astToString(ast)}`,
  };
}
