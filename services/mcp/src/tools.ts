import { z } from 'zod';
import { capabilityList, type Capability, type CostKind } from '@evidence-record/contract';

/**
 * The 18 MCP tools, built once at start-up from the contract's capability
 * table: one tool per capability, its input schema generated from the same
 * zod schemas that validate the REST request, and the guidance a model can
 * act on that the capability's module gives (`mcp`: title, use, one
 * description per argument). A tool's arguments are the capability's path
 * parameters, query parameters and body fields flattened into one object
 * (docs/mcp.md).
 */

/** Where an argument goes on the REST call. */
export type ArgumentLocation = 'path' | 'query' | 'body';

export interface ArgumentPart {
  location: ArgumentLocation;
  schema: z.ZodType;
  keys: readonly string[];
}

/** The MCP `Tool` object exactly as tools/list sends it. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[]; additionalProperties: false };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  legacyName: string;
  capability: Capability;
  parts: readonly ArgumentPart[];
  listing: ToolListing;
}

const costSentence: Record<CostKind, string> = {
  product: 'Spends one unit of the daily product budget per distinct product the answer names (the same product again the same UTC day costs nothing).',
  signal: 'Spends one unit of the daily Signal budget per distinct Signal the answer names (the same Signal again the same UTC day costs nothing).',
  ingredient: 'Spends one unit of the daily ingredient budget per distinct ingredient the answer names (the same ingredient again the same UTC day costs nothing).',
  nothing: 'Spends no budget.',
};

function objectSchema(schema: z.ZodType): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { type?: string; properties?: Record<string, JsonSchema>; required?: string[] };
  if (json.type !== 'object') throw new Error('a capability request part must be a zod object');
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}

function buildTool(capability: Capability): ToolDefinition {
  const help = capability.mcp;
  const sources: [ArgumentLocation, z.ZodType | null][] = [
    ['path', capability.params],
    ['query', capability.query],
    ['body', capability.body],
  ];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const parts: ArgumentPart[] = [];
  for (const [location, schema] of sources) {
    if (!schema) continue;
    const part = objectSchema(schema);
    for (const [key, property] of Object.entries(part.properties)) {
      if (key in properties) throw new Error(`${capability.tool}: argument ${key} appears in two request parts`);
      const description = help.arguments[key];
      if (!description) throw new Error(`${capability.tool}: argument ${key} has no description`);
      properties[key] = { ...property, description };
    }
    required.push(...part.required);
    // A part with no fields still matters for the body: a body capability always sends one.
    if (Object.keys(part.properties).length > 0 || location === 'body') {
      parts.push({ location, schema, keys: Object.keys(part.properties) });
    }
  }
  for (const key of Object.keys(help.arguments)) {
    if (!(key in properties)) throw new Error(`${capability.tool}: described argument ${key} is not in the request schema`);
  }
  const readOnly = capability.readOnly;
  const description = [
    capability.description,
    help.use,
    Object.keys(properties).length === 0 ? 'Takes no arguments.' : null,
    `Requires the ${capability.scope} scope.`,
    costSentence[capability.cost],
  ]
    .filter(Boolean)
    .join(' ');
  return {
    name: capability.tool,
    legacyName: `service_${capability.name}`,
    capability,
    parts,
    listing: {
      name: capability.tool,
      title: help.title,
      description,
      inputSchema: {
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      },
      annotations: {
        title: help.title,
        readOnlyHint: readOnly,
        // Removing a watch takes something away (it is undone by watching again); adding one only adds.
        destructiveHint: capability.method === 'DELETE',
        // Reads are repeatable, and watch/unwatch are idempotent by contract.
        idempotentHint: true,
        // The tools answer from the Record only: a closed world.
        openWorldHint: false,
      },
    },
  };
}

/** Which names tools/list gives: the contract's (default) or `service_<capability>` for hosts that refuse dots (docs/mcp.md). */
export type ToolNaming = 'contract' | 'service';

export interface ToolCatalogue {
  /** What tools/list answers by default: the 18 tools under the contract's names. */
  listed: ToolListing[];
  /** The same 18 listings under their `service_<capability>` names, for hosts that refuse dots in tool names. */
  listedServiceNames: ToolListing[];
  /** A tool by its name or its legacy name `service_<capability>`. */
  find: (name: string) => ToolDefinition | undefined;
  tools: readonly ToolDefinition[];
}

export function buildToolCatalogue(capabilities: readonly Capability[] = capabilityList): ToolCatalogue {
  const tools = capabilities.map(buildTool);
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    for (const name of [tool.name, tool.legacyName]) {
      if (byName.has(name)) throw new Error(`tool name ${name} is used twice`);
      byName.set(name, tool);
    }
  }
  // Served to every request as the same objects: frozen so no request can change another's answer.
  const listed = tools.map((t) => deepFreeze(t.listing));
  const listedServiceNames = tools.map((t) => deepFreeze({ ...t.listing, name: t.legacyName }));
  return { listed, listedServiceNames, find: (name) => byName.get(name), tools };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
