import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { initialize, instructions, serverCapabilities, serverInfo } from './methods/initialize';
import { callTool, type ToolCallContext, type ToolCallDeps } from './methods/tools-call';
import { RpcError, rpcCodes } from './rpc-errors';

export interface ProtocolDeps extends ToolCallDeps {
  /** Shared by every per-request server: building a JSON Schema validator per request would be waste. */
  validator: jsonSchemaValidator;
}

type SdkRequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> } & z.ZodRawShape>;

/** Schemas that only match a method name, built once: the SDK dispatches on them, we parse the params. */
const methodMatchers = new Map<string, z.ZodType>();
function matcherFor(method: string): z.ZodType {
  let matcher = methodMatchers.get(method);
  if (!matcher) {
    matcher = z.looseObject({ method: z.literal(method) });
    methodMatchers.set(method, matcher);
  }
  return matcher;
}

/**
 * Registers a method handler that parses the request with the SDK's schema
 * itself, so malformed params are a -32602 naming the field rather than
 * the SDK's generic internal error.
 */
function handle<S extends SdkRequestSchema>(server: Server, schema: S, handler: (request: z.infer<S>) => ServerResult | Promise<ServerResult>): void {
  const method = schema.shape.method.value;
  server.setRequestHandler(matcherFor(method) as z.ZodObject<{ method: z.ZodLiteral<string> }>, async (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue ? issue.path.filter((p) => p !== 'params').join('.') || 'params' : 'params';
      throw new RpcError(rpcCodes.invalidParams, `Invalid params for ${method}: ${field}: ${issue?.message ?? 'invalid'}`, {
        code: 'invalid_params',
        field,
      });
    }
    return handler(parsed.data);
  });
}

/** We never issue cursors, so any cursor is one we did not issue. */
function refuseCursor(params: { cursor?: string } | undefined): void {
  if (params?.cursor !== undefined) {
    throw new RpcError(rpcCodes.invalidParams, 'Invalid params: this list has one page; there is no cursor to follow.', { code: 'invalid_params', field: 'cursor' });
  }
}

/**
 * One MCP server for one HTTP request, as the SDK's stateless mode
 * requires. Everything it serves (the tool table, capabilities,
 * instructions) was built once at start-up; only the caller's context is new.
 */
export function buildProtocolServer(ctx: ToolCallContext, deps: ProtocolDeps): Server {
  const server = new Server(serverInfo, { capabilities: serverCapabilities, instructions, jsonSchemaValidator: deps.validator });
  handle(server, InitializeRequestSchema, (request) => initialize(request.params));
  handle(server, ListToolsRequestSchema, (request) => {
    refuseCursor(request.params);
    return { tools: deps.catalogue.listed };
  });
  // Through handle() like the other methods: registered with the SDK's own schema, a malformed name or
  // arguments (null, an array) failed the SDK's parse before its -32602 check and came back -32603.
  // The SDK still checks name/arguments (-32602) and the result's shape.
  handle(server, CallToolRequestSchema, (request) => callTool(request.params, ctx, deps));
  handle(server, ListResourcesRequestSchema, (request) => {
    refuseCursor(request.params);
    return { resources: [] };
  });
  handle(server, ListResourceTemplatesRequestSchema, (request) => {
    refuseCursor(request.params);
    return { resourceTemplates: [] };
  });
  handle(server, ListPromptsRequestSchema, (request) => {
    refuseCursor(request.params);
    return { prompts: [] };
  });
  return server;
}
