import * as decisions from './decisions';

/**
 * The decisions on what the spec leaves open, stated in words inside the
 * document (a consumer has the document, not this repository).
 */
export const decisionTexts = {
  default_page_size: `list_signal_changes and get_category_snapshot answer ${decisions.DEFAULT_PAGE_SIZE} items per page when limit is not given; limit is at most ${decisions.MAX_PAGE_SIZE}.`,
  snapshot_window: `A category snapshot window is at most ${decisions.MAX_SNAPSHOT_WINDOW_DAYS} days, both ends inclusive; with neither from nor to it covers the last ${decisions.DEFAULT_SNAPSHOT_WINDOW_DAYS} days of releases.`,
  search_result_cap: `search_record answers with at most ${decisions.SEARCH_RESULT_CAP} products and never pages: it is not a listing.`,
  signal_dimensions: `Signal dimensions are ${decisions.signalDimensions.join(', ')}; an open enum: new members may appear.`,
  categories: `The Record covers one category, ${decisions.SUPPORTED_CATEGORY}; an open enum.`,
  ingredient_identity:
    'A declared line\'s ingredient_id is the canonical ingredient it is identified as: by the label row\'s UNII, then its DSLD ingredient group (and form), then its printed name. A line matching no ingredient, or two, has none (never a guess). Identity is curated: at a later record_version a line may gain or change its ingredient_id; its declared_name and amount never change, and such a change is never a Signal.',
  brand_filter: 'The brand filter takes a brand id (brd_…) as it appears in ProductIdentity.brand_id, never a brand name.',
  depth_classes: 'REGISTERED: known to exist, no comparable label (refused by comparison). CAPTURED: one or more captured label states. TRACKED: monitored over time.',
  history_state_classes: 'comparable: a full label with amounts. presence_only: ingredients named, amounts not fully readable. identity_only: no label content.',
  edition_statuses: 'A ledger edition is open (computed live, changes until it closes) or closed (never changes; its edition_hash stays valid).',
  price_bases: 'An observed price is list, promotional, subscription or unspecified; only list is ever called a list price, and a promotional-versus-list difference is never a price change.',
  watch_receipt_period: 'period is a UTC calendar month, YYYY-MM; default the current month. A month that has not started is invalid_request; the current month is partial up to today.',
  watch_check_schedule: 'The sources of a monitored product are read weekly: next_check_due is the last check plus 7 days.',
  refused_comparison: 'A comparison naming a REGISTERED product is an HTTP 200 answer with status "refused", the named products, no comparison object and a limitation naming the REGISTERED product (the same on MCP).',
  watch_refusals: 'Watch calls from a key whose organization is not bound to exactly one account: 403 account_binding_required. A non-entitled account: 403 plan_entitlement_required. Beyond the watch limit: 409 watch_limit_reached. A retired product: 409 product_not_watchable; an id not in the Record: 404 not_found.',
  extraction_pattern: 'Requests that match a pattern of copying the Record are refused with 429 extraction_pattern_refused and Retry-After (a cool-down); continuing suspends the key (403 key_suspended).',
  cursor: `A cursor is opaque, signed by the service, bound to the filters it was issued for and valid ${decisions.CURSOR_TTL_SECONDS / 3600} hours; any other cursor, or one sent with different filters, is invalid_request.`,
  path_ids: 'Path ids are canonical ids only; a name or alias in a path is invalid_request naming the field (resolve names with resolve_product first).',
  error_documentation: 'error.documentation is a relative address into this document: /api/v1/openapi.json#/x-error-codes/<code>.',
  rate_headers: 'RateLimit-* describe the rate window (minute, hour or day) closest to exhaustion for this key; they are sent on every response to a request made with a valid key, refusals included.',
  budget: 'A successful answer spends one unit of the organization\'s daily budget per distinct entity it names (product, signal or ingredient: the x-cost of the operation); naming it again the same UTC day costs nothing. The budget resets at 00:00 UTC; a 429 extraction_limit_reached says how long until then in Retry-After.',
  mcp_protocol_versions: `The MCP endpoint (POST /mcp) accepts protocol versions ${decisions.MCP_PROTOCOL_VERSIONS.join(', ')}.`,
  source_kinds: `A source's kind in every answer (SourceReference.kind, source health, coverage by kind) is one of ${decisions.answerSourceKinds.join(', ')}: a DSLD label is the manufacturer's declared label, an offer page a retailer's.`,
  research_and_regulatory:
    'Research context and regulatory records are curated entries with a permanent entry_id (rsc_…, reg_…), an authority, a date (YYYY, YYYY-MM or YYYY-MM-DD) and an https reference on an allow-list of authorities\' and publishers\' domains. A correction keeps each corrected field\'s value before and after (corrections[].changes); a retired entry is not served as current and is named in coverage.retired and limitations with its date and reason. A regulatory record is never an approval, a warning about a product or a finding of harm; a documented caution is the authority\'s own, referenced on its own domain. Each change is a new record_version.',
  signal_address_page: 'A Signal\'s address (signal_url, GET /api/v1/signals/{signal_id}) opened without a valid key by a client that prefers text/html to application/json (a browser following the address cited in an alert email) answers the same 401, with the same headers and Vary: Accept, as a short HTML page saying what the address is and how to read it with a key (REST and MCP); it names nothing of the Record. Any other Accept (application/json, */*, none) gets the JSON envelope.',
  additive_change: 'Additive changes ship without notice: new fields, new capabilities, new members of enums documented as open (error codes, dimensions, categories). Objects in answers are open: ignore fields you do not know. A breaking change gets a new path; deprecations are announced in the changelog and keep their old value for at least 90 days.',
} as const;
