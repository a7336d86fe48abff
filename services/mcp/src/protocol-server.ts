import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCRequest,
  type RequestId,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { initialize, instructions, serverCapabilities, serverInfo } from './methods/initialize';
import { callTool, type ToolCallContext, type ToolCallDeps } from './methods/tools-call';
import { RpcError, rpcCodes } from './rpc-errors';

export type ProtocolDeps = ToolCallDeps;

type SdkRequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> } & z.ZodRawShape>;
type Method = (request: JSONRPCRequest, requestId: RequestId) => ServerResult | Promise<ServerResult>;

/**
 * A method that parses its request with the SDK's own schema, so malformed
 * params are a -32602 naming the field rather than the SDK's generic
 * internal error.
 */
function method<S extends SdkRequestSchema>(schema: S, handler: (request: z.infer<S>, requestId: RequestId) => ServerResult | Promise<ServerResult>): [string, Method] {
  const name = schema.shape.method.value;
  return [
    name,
    (raw, requestId) => {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue ? issue.path.filter((p) => p !== 'params').join('.') || 'params' : 'params';
        throw new RpcError(rpcCodes.invalidParams, `Invalid params for ${name}: ${field}: ${issue?.message ?? 'invalid'}`, {
          code: 'invalid_params',
          field,
        });
      }
      return handler(parsed.data, requestId);
    },
  ];
}

/** We never issue cursors, so any cursor is one we did not issue. */
function refuseCursor(params: { cursor?: string } | undefined): void {
  if (params?.cursor !== undefined) {
    throw new RpcError(rpcCodes.invalidParams, 'Invalid params: this list has one page; there is no cursor to follow.', { code: 'invalid_params', field: 'cursor' });
  }
}

/**
 * The process's one MCP server, built once at start-up with everything it
 * serves (the tool table, capabilities, instructions). Each request's
 * caller (key, log, trace) is looked up by the id the server sees the
 * request under (see ExchangeTransport).
 *
 * Our methods answer through the SDK's fallback request handler rather than
 * `setRequestHandler`: for tools/call the SDK's `Server` wraps a registered
 * handler in a second parse of the request and a zod check of the result
 * against CallToolResultSchema on every call, which for a result this
 * service builds itself from a fixed shape (methods/tools-call.ts) costs
 * more CPU than the rest of the call's JSON-RPC handling. The SDK still
 * frames, dispatches and answers every message, and answers ping and the
 * notifications itself.
 */
export function buildProtocolServer(deps: ProtocolDeps, callerOf: (requestId: RequestId) => ToolCallContext | undefined): Server {
  const server = new Server(serverInfo, { capabilities: serverCapabilities, instructions });
  const methods = new Map<string, Method>([
    // Ours negotiates within our three versions only; the SDK's answers its own newest (docs/decisions/0602).
    method(InitializeRequestSchema, (request) => initialize(request.params)),
    method(ListToolsRequestSchema, (request, requestId) => {
      refuseCursor(request.params);
      // The same tools under the names a host that refuses dots can take, when the request asked for them (docs/mcp.md).
      return { tools: callerOf(requestId)?.toolNames === 'service' ? deps.catalogue.listedServiceNames : deps.catalogue.listed };
    }),
    method(CallToolRequestSchema, (request, requestId) => {
      const caller = callerOf(requestId);
      // Only a request whose HTTP request has gone away has no caller; its answer is dropped anyway.
      if (!caller) throw new RpcError(rpcCodes.internalError, 'The request was abandoned.', { code: 'internal_error' });
      return callTool(request.params, caller, deps);
    }),
    method(ListResourcesRequestSchema, (request) => {
      refuseCursor(request.params);
      return { resources: [] };
    }),
    method(ListResourceTemplatesRequestSchema, (request) => {
      refuseCursor(request.params);
      return { resourceTemplates: [] };
    }),
    method(ListPromptsRequestSchema, (request) => {
      refuseCursor(request.params);
      return { prompts: [] };
    }),
    // The lists are empty, so no URI and no prompt name is known: the MCP spec's errors for an unknown one (docs/decisions/0604).
    method(ReadResourceRequestSchema, (request) => {
      throw new RpcError(rpcCodes.resourceNotFound, 'Resource not found: this server has no resources.', { code: 'not_found', uri: request.params.uri });
    }),
    method(GetPromptRequestSchema, (request) => {
      throw new RpcError(rpcCodes.invalidParams, `Invalid params: unknown prompt "${request.params.name}"; this server has no prompts.`, { code: 'invalid_params', field: 'name' });
    }),
  ]);
  server.removeRequestHandler('initialize');
  server.fallbackRequestHandler = async (request, extra) => {
    const serve = methods.get(request.method);
    if (!serve) throw new RpcError(rpcCodes.methodNotFound, 'Method not found', { code: 'method_not_found' });
    return serve(request, extra.requestId);
  };
  return server;
}
