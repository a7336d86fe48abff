import { buildOpenApiDocument } from '@evidence-record/contract';
import openapiTS, { astToString } from 'openapi-typescript';

const banner = (how: string) =>
  `// Generated from the contract (services/contract) by services/client/scripts/generate.ts ${how}.\n// Do not edit: a test fails when this file differs from a fresh generation.\n`;

/**
 * The client's generated files, by path inside the package: the OpenAPI
 * document exactly as the gateway serves it (server '/') and the types
 * openapi-typescript derives from it. Both are committed so a consumer can
 * read them; the drift test regenerates and compares.
 */
export async function generatedFiles(): Promise<Record<string, string>> {
  const document = buildOpenApiDocument('/');
  const ast = await openapiTS(document as never);
  const routes: Record<string, { method: string; path: string }> = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>)) {
    for (const [method, op] of Object.entries(item)) routes[op.operationId] = { method: method.toUpperCase(), path };
  }
  const routesTs =
    `${banner('from the document\'s paths')}` +
    `/** Method and path of every operation, by operationId (the capability name). */\n` +
    `export const routes = ${JSON.stringify(routes, null, 2).replace(/"([a-z_]+)":/g, '$1:').replace(/"/g, "'")} as const;\n`;
  return {
    'src/routes.ts': routesTs,
    'openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'src/schema.ts': `${banner('with openapi-typescript')}${astToString(ast)}`,
  };
}
