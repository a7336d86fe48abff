import { z } from 'zod';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SNAPSHOT_WINDOW_DAYS,
  MAX_PAGE_SIZE,
  MAX_SNAPSHOT_WINDOW_DAYS,
  capabilityList,
  signalDimensions,
  categories,
  type Capability,
  type CapabilityName,
  type CostKind,
} from '@evidence-record/contract';

/**
 * The 18 MCP tools, built once at start-up from the contract's capability
 * table: one tool per capability, its input schema generated from the same
 * zod schemas that validate the REST request, and guidance a model can act
 * on. A tool's arguments are the capability's path parameters, query
 * parameters and body fields flattened into one object (docs/mcp.md).
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

interface Guidance {
  title: string;
  /** What to do with the answer, beyond the contract's one-line description. */
  use: string;
  /** One description per argument; every argument of the schema must have one. */
  arguments: Record<string, string>;
}

const productId = 'Canonical product id: prd_ followed by 12 lowercase letters or digits, as returned by products.resolve or record.search. Names are refused: resolve them first.';
const ingredientIds = 'Up to 5 ingredient ids (ing_ followed by a lowercase slug), as named in an earlier answer.';
const ingredientProduct = 'Canonical product id (prd_…): reads the ingredients that product declares. Give ingredient_ids, product_id, or both.';
const pageLimit = `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`;
const cursor = 'The next_cursor of the previous page, unchanged. Only cursors this service issued are accepted; omit it for the first page.';

const guidance: Record<CapabilityName, Guidance> = {
  search_record: {
    title: 'Search the Record',
    use: 'Use it to find candidate products for a question; pass a returned product_id to the product tools.',
    arguments: { query: 'Free text, up to 300 characters: a brand, product name, alias or declared ingredient.' },
  },
  resolve_product: {
    title: 'Resolve a product name to its id',
    use: 'Call this first whenever a product is named, then pass product.product_id to the other tools. status "ambiguous": ask the user to choose among candidates, never take the first. status "unsupported": the product is not covered by the Record (a fact about the Record, not about the product).',
    arguments: { identifier: 'Brand, product name or alias exactly as the user gave it, up to 120 characters.' },
  },
  get_product_record: {
    title: 'Get a product record',
    use: 'A label ingredient with amount null was named without an amount: report it as undisclosed, never as zero.',
    arguments: { product_id: productId },
  },
  get_formula_history: {
    title: "Get a product's formula history",
    use: 'An observation window is not an exact change date: say "changed between start and end" unless exact_change_date is set.',
    arguments: { product_id: productId },
  },
  explain_signal: {
    title: 'Explain one Signal',
    use: 'Cite the signal_url as the permanent address. An unreleased or invented id answers not_found.',
    arguments: { signal_id: 'Signal id: sig_ followed by 12 lowercase letters or digits, from signals.list, products.history or a signal_url.' },
  },
  list_signal_changes: {
    title: 'List released Signals (the change feed)',
    use: 'Ordered by release date, newest first, not by the date of the change.',
    arguments: {
      since: 'Release date YYYY-MM-DD. To poll, pass the newest review.released_at you have already processed.',
      until: 'Release date YYYY-MM-DD: the latest release date to include.',
      product_id: 'Only Signals about this canonical product id (prd_…).',
      brand: 'Only Signals about this brand id (brd_ followed by a lowercase slug).',
      dimension: `Only Signals of this dimension: ${signalDimensions.join(', ')} (open list).`,
      category: `Only Signals in this category: ${categories.join(', ')} (open list).`,
      limit: pageLimit,
      cursor,
    },
  },
  compare_products: {
    title: 'Compare 2 or 3 products',
    use: 'Report declared doses side by side; a dose comparison is not evidence of effectiveness, safety or suitability, and never names a winner.',
    arguments: { product_ids: '2 or 3 distinct canonical product ids (prd_…), resolved first.' },
  },
  get_serving_economics: {
    title: 'Get price per serving',
    use: 'Price per serving is a calculation by the service, not a manufacturer figure; a promotional price is not a price change.',
    arguments: { product_id: productId },
  },
  get_research_context: {
    title: 'Get research context for ingredients',
    use: 'Studied ranges describe research, not a recommendation for anyone.',
    arguments: { ingredient_ids: ingredientIds, product_id: ingredientProduct },
  },
  get_regulatory_context: {
    title: 'Get regulatory records for ingredients',
    use: 'Report a filing as what it is; never as an approval, a warning about a product or a finding of harm.',
    arguments: { ingredient_ids: ingredientIds, product_id: ingredientProduct },
  },
  get_category_snapshot: {
    title: 'Get a category snapshot',
    use: 'Page with next_cursor until it is null.',
    arguments: {
      from: `First release date of the window, YYYY-MM-DD. Without from/to: the last ${DEFAULT_SNAPSHOT_WINDOW_DAYS} days.`,
      to: `Last release date of the window, YYYY-MM-DD. A window spans at most ${MAX_SNAPSHOT_WINDOW_DAYS} days.`,
      limit: pageLimit,
      cursor,
    },
  },
  list_ledger_editions: {
    title: 'List ledger editions',
    use: 'Pass an edition_id to ledger.get for its content.',
    arguments: {},
  },
  get_ledger_edition: {
    title: 'Get one ledger edition',
    use: 'Quote proportions with the cohort denominator they name.',
    arguments: { edition_id: 'Edition id ed_YYYY_MM, as listed by ledger.list.' },
  },
  list_watched_products: {
    title: 'List the watchlist',
    use: 'Acts on the one account bound to the key; no argument names an account.',
    arguments: {},
  },
  watch_product: {
    title: 'Watch a product',
    use: 'Safe to repeat: watching a watched product succeeds. Refused for a product outside the covered set or beyond the watch limit.',
    arguments: { product_id: productId },
  },
  unwatch_product: {
    title: 'Stop watching a product',
    use: 'Safe to repeat: removing a product that is not watched succeeds.',
    arguments: { product_id: productId },
  },
  get_watch_receipt: {
    title: 'Get the monitoring receipt',
    use: 'A period the monitoring ledger does not reach is reported as partly covered, not as zero.',
    arguments: { period: 'Calendar month YYYY-MM; omit it for the current month.' },
  },
  get_record_version: {
    title: 'Get the Record version',
    use: 'Answers sharing a record_version came from one committed state of the Record.',
    arguments: {},
  },
};

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
  const help = guidance[capability.name as CapabilityName];
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
