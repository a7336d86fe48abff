import { Parser } from 'htmlparser2';
import type { Parse } from './kinds/kind';

/**
 * An offer page read through its schema.org JSON-LD (decision 1008), parsed
 * with htmlparser2, never with regular expressions over HTML. Bases:
 * `list` only for a price the page marks as a list price (priceType
 * ListPrice or StrikethroughPrice); the selling price beside a marked list
 * price is `promotional` when lower; a lone price with no marker is
 * `unspecified` (observed, never called list). USD only.
 */
export interface OfferReading {
  prices: Array<{ price_cents: number; basis: 'list' | 'promotional' | 'unspecified' }>;
  availability: string | null;
  /** The JSON-LD blocks the reading came from: the evidence kept for an offer page. */
  jsonld: unknown[];
}

export type OfferParse = Parse<OfferReading>;

export function jsonLdBlocks(html: string): { blocks: unknown[]; malformed: number } {
  const raw: string[] = [];
  let inside = false;
  let buffer = '';
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        // The media type without its parameters: "application/ld+json; charset=utf-8" is one too.
        if (name === 'script' && (attribs.type ?? '').split(';')[0]!.trim().toLowerCase() === 'application/ld+json') {
          inside = true;
          buffer = '';
        }
      },
      ontext(data) {
        if (inside) buffer += data;
      },
      onclosetag(name) {
        if (name === 'script' && inside) {
          inside = false;
          raw.push(buffer);
        }
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  const blocks: unknown[] = [];
  let malformed = 0;
  for (const r of raw) {
    const block = parseBlock(r);
    if (block === MALFORMED) malformed++;
    else blocks.push(block);
  }
  return { blocks, malformed };
}

const MALFORMED = Symbol('malformed');

/**
 * A script's text without the guards templates still wrap it in, from the days when browsers showed script text:
 * an HTML comment (`<!-- … -->`) or a CDATA section, bare or commented out for JavaScript with `//` or with a
 * block comment on each marker.
 * JSON never starts with `<` or `/`, so a block without them is read as it is.
 */
function withoutScriptGuards(text: string): string {
  let t = text.trim();
  for (const [open, close] of [['<!--', '-->'], ['//<![CDATA[', '//]]>'], ['/*<![CDATA[*/', '/*]]>*/'], ['<![CDATA[', ']]>']] as const) {
    if (t.startsWith(open) && t.endsWith(close)) t = t.slice(open.length, t.length - close.length).trim();
  }
  return t;
}

function parseBlock(script: string): unknown {
  const text = withoutScriptGuards(script);
  try {
    return JSON.parse(text);
  } catch {
    // Only a block that failed is repaired, so no block that parses is ever read differently.
    try {
      return JSON.parse(quoteLeadingZeroNumbers(text));
    } catch {
      return MALFORMED;
    }
  }
}

/**
 * JSON forbids a number written with a leading zero, and Shopify's reference theme printed every variant's barcode
 * bare from 2022-04 to 2024-05 (Dawn's `sections/main-product.liquid`: `"gtin12": {{ variant.barcode }}`), so a
 * UPC-A such as 048107098339 made the whole block unreadable: the prices and the very identifiers that tell a page's
 * sizes apart. Outside strings, a value that is such a number and nothing else (after `:`, `[` or `,`, before `,`,
 * `}` or `]`) becomes the string it was meant to be; anything else malformed stays malformed.
 */
export function quoteLeadingZeroNumbers(text: string): string {
  const out: string[] = [];
  let copied = 0;
  let previous = ''; // the last character outside strings and whitespace
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      previous = '"';
      continue;
    }
    if (c === '0' && (previous === ':' || previous === '[' || previous === ',') && isDigit(text[i + 1])) {
      let end = i + 1;
      while (isDigit(text[end])) end++;
      let after = end;
      while (after < text.length && /\s/.test(text[after]!)) after++;
      if (text[after] === ',' || text[after] === '}' || text[after] === ']') {
        out.push(text.slice(copied, i), '"', text.slice(i, end), '"');
        copied = end;
      }
      i = end - 1;
      previous = '0';
      continue;
    }
    if (!/\s/.test(c)) previous = c;
  }
  out.push(text.slice(copied));
  return out.join('');
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** What a product's JSON-LD says about its reviews, which changes on every visit and says nothing about the price. */
const REVIEW_PROPERTIES = new Set(['aggregateRating', 'review', 'reviews']);

/**
 * The JSON-LD blocks as kept for evidence (decision 1004): as the page served them, without review counts and
 * ratings, so that a re-reading whose only change is its reviews keeps no new content. Prices, offers and every
 * other property stay as served.
 */
export function withoutReviews(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutReviews);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) if (!REVIEW_PROPERTIES.has(key)) out[key] = withoutReviews(value);
  return out;
}

const asArray = <T>(v: T | T[] | undefined | null): T[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeIs = (o: Obj, t: string) => asArray(o['@type'] as string | string[]).some((x) => typeof x === 'string' && x.replace(/^https?:\/\/schema\.org\//, '') === t);

function products(node: unknown, out: Obj[] = []): Obj[] {
  if (Array.isArray(node)) for (const n of node) products(n, out);
  else if (isObj(node)) {
    if (typeIs(node, 'Product') || typeIs(node, 'ProductGroup')) out.push(node);
    for (const key of ['@graph', 'mainEntity', 'hasVariant']) if (node[key]) products(node[key], out);
  }
  return out;
}

/** What a node calls itself: the identifiers a page gives a product or an offer (a variant is named by one of them). */
const ID_PROPERTIES = ['sku', 'gtin', 'gtin8', 'gtin12', 'gtin13', 'gtin14', 'mpn', 'productID'] as const;

/** An identifier as compared: trimmed, upper case; a GTIN without its leading zeros (a UPC-A is the same GTIN-14 zero-padded). */
export function variantKey(id: string): string {
  const v = id.trim().toUpperCase();
  return /^\d{8,14}$/.test(v) ? v.replace(/^0+(?=\d)/, '') : v;
}

function idsOf(node: Obj): string[] {
  const ids: string[] = [];
  for (const key of ID_PROPERTIES) {
    const v = node[key];
    if (typeof v === 'string' && v.trim() !== '') ids.push(v.trim());
    else if (typeof v === 'number' && Number.isSafeInteger(v)) ids.push(String(v));
  }
  return ids;
}

/** An offer with the identifiers it is known by: its own and its product's, as printed and as compared (variantKey). */
interface NamedOffer {
  offer: Obj;
  ids: string[];
  keys: Set<string>;
}

function offersOf(product: Obj): NamedOffer[] {
  const out: NamedOffer[] = [];
  const productIds = idsOf(product);
  const walk = (o: unknown) => {
    for (const x of asArray(o as Obj | Obj[])) {
      if (!isObj(x)) continue;
      if (typeIs(x, 'AggregateOffer') && x.offers) walk(x.offers);
      else {
        const ids = [...idsOf(x), ...productIds];
        out.push({ offer: x, ids, keys: new Set(ids.map(variantKey)) });
      }
    }
  };
  walk(product.offers);
  return out;
}

export function centsOf(v: unknown): number | null {
  // schema.org asks for digits and a dot; pages also write "$39.99" or "1,049.00". A decimal comma ("39,99") is not read.
  const text = typeof v === 'string' ? /^\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*$/.exec(v) : null;
  const n = typeof v === 'number' ? v : text ? Number(`${text[1]!.replaceAll(',', '')}${text[2] ?? ''}`) : NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  return Math.round(n * 100);
}

/**
 * A unit price (per kilogram, per 100 g, per serving: a `referenceQuantity` other than one item) is not what the
 * container costs; reading it as the offer's price would misstate the price per serving.
 */
function perQuantity(spec: Obj): boolean {
  const q = spec.referenceQuantity;
  if (!isObj(q)) return false;
  return !(Number(q.value ?? 1) === 1 && (q.unitCode === undefined || q.unitCode === 'C62'));
}

const priceTypeOf = (spec: Obj) => String(spec.priceType ?? '').replace(/^https?:\/\/schema\.org\//, '');

/** Which offer of a page of several a source reads: the variant it names, else the one its product's label UPC is. */
export interface OfferSelection {
  variant?: string | null;
  /** GTIN digits the product's DSLD label declares (`upcSku`). */
  labelGtins?: readonly string[];
}

export function parseOfferPage(html: string, select: OfferSelection = {}): OfferParse {
  const { blocks, malformed } = jsonLdBlocks(html);
  return parseOfferBlocks(blocks, malformed, select);
}

/** How many of a page's variants an ambiguity reason names. */
const VARIANTS_NAMED = 4;

/**
 * The offer in JSON-LD blocks already extracted (a fresh page, or the evidence a 304 stands for). A source that
 * names a variant (`source add --variant`: a sku, GTIN or MPN the page gives the offer or its product) reads that
 * offer only. A source that names none reads the page's one price: offers that all say the same (flavours of one
 * size) are one reading; among offers at different prices (sizes, a flavour on sale), the one whose GTIN is the UPC
 * the product's DSLD label declares; otherwise they are never guessed between, and the check is unreadable with
 * the variants the page names, so the operator can name one.
 */
export function parseOfferBlocks(blocks: unknown[], malformed = 0, select: OfferSelection = {}): OfferParse {
  const variant = select.variant ?? null;
  if (blocks.length === 0) return { ok: false, outcome: 'empty', reason: malformed > 0 ? 'the JSON-LD on the page is malformed' : 'no JSON-LD on the page' };
  let offers = products(blocks).flatMap(offersOf);
  if (offers.length === 0) return { ok: false, outcome: 'empty', reason: 'no schema.org Product offer on the page' };
  if (variant !== null) {
    const wanted = variantKey(variant);
    offers = offers.filter((o) => o.keys.has(wanted));
    if (offers.length === 0) return { ok: false, outcome: 'empty', reason: `no offer on the page is variant ${variant}` };
  }
  // Each priced offer with what it says (its prices, or why it cannot be read), compared as one string.
  const read: Array<{ named: NamedOffer; parse: OfferParse; says: string }> = [];
  for (const named of offers) {
    const parse = readOffer(named.offer, blocks);
    if (parse) read.push({ named, parse, says: parse.ok ? JSON.stringify(parse.reading.prices) : `${parse.outcome}: ${parse.reason}` });
  }
  if (read.length === 0) return { ok: false, outcome: 'empty', reason: variant === null ? 'no offer on the page states a price' : `variant ${variant} states no price` };
  // What offers say when they all say the same, else null.
  const oneSaid = (of: typeof read): OfferParse | null => {
    const [head] = of;
    return head && of.every((r) => r.says === head.says) ? head.parse : null;
  };
  const agreed = oneSaid(read);
  if (agreed) return agreed;
  if (variant === null && select.labelGtins?.length) {
    // The label's own barcode names the size this product is (a UPC-A is the same number as its GTIN-13/14).
    const upcs = select.labelGtins.map(variantKey);
    const labelled = oneSaid(read.filter((r) => upcs.some((k) => r.named.keys.has(k))));
    if (labelled) return labelled;
  }
  const named = read.slice(0, VARIANTS_NAMED).map((r) => `${r.named.ids[0] ?? 'unnamed'} (${r.parse.ok ? r.parse.reading.prices.map((p) => `$${(p.price_cents / 100).toFixed(2)} ${p.basis}`).join(', ') : r.parse.reason})`);
  const more = read.length > VARIANTS_NAMED ? `, and ${read.length - VARIANTS_NAMED} more` : '';
  const which = variant === null ? 'name the one this source is with --variant' : `variant ${variant} names more than one of them`;
  const reason = `the page offers ${read.length} variants at different prices: ${named.join('; ')}${more}; ${which}`.slice(0, 300);
  return { ok: false, outcome: 'unreadable', reason, ...(variant === null && select.labelGtins === undefined ? { needsLabel: true } : {}) };
}

/** An end of an SFRA range: its price model (`{ sales: { decimalPrice, value, currency }, list }`) or a bare number. */
function sfraPriceCents(end: unknown): number | null {
  if (!isObj(end)) return centsOf(end);
  return isObj(end.sales) ? centsOf(end.sales.decimalPrice ?? end.sales.value) : null;
}

/** One offer's prices, or why it cannot be read; null when it states no price at all. */
function readOffer(offer: Obj, blocks: unknown[]): OfferParse | null {
  // An AggregateOffer without its offers is a summary of several: a range is not a price, whichever end it states.
  // No variant can be named either, since the page prices none of them (WooCommerce's markup of a product sold in
  // several sizes at different prices); offers listed beside it are read by the variant rule instead.
  // BigCommerce's reference theme (Cornerstone) writes a range as an Offer's minPrice and maxPrice, with no price.
  // Salesforce's (SFRA) writes it as `lowprice` and `highprice`, lower case, each its own price model object: read
  // to recognise the range only, so that a key schema.org does not define never becomes a price.
  const aggregate = typeIs(offer, 'AggregateOffer');
  const minCents = centsOf(offer.minPrice);
  const maxCents = centsOf(offer.maxPrice);
  if (aggregate || offer.price === undefined) {
    const low = aggregate ? (centsOf(offer.lowPrice) ?? sfraPriceCents(offer.lowprice)) : minCents;
    const high = aggregate ? (centsOf(offer.highPrice) ?? sfraPriceCents(offer.highprice)) : maxCents;
    if (low !== null && high !== null && high !== low) {
      const count = typeof offer.offerCount === 'number' || typeof offer.offerCount === 'string' ? ` over ${offer.offerCount} offers` : '';
      return { ok: false, outcome: 'unreadable', reason: `the page gives only a price range, $${(low / 100).toFixed(2)} to $${(high / 100).toFixed(2)}${count}, not the price of any one offer` };
    }
  }
  const specs = asArray(offer.priceSpecification as Obj | Obj[]).filter((s): s is Obj => isObj(s) && !perQuantity(s));
  const currency = String(offer.priceCurrency ?? specs.find((s) => s.priceCurrency)?.priceCurrency ?? '').toUpperCase();
  const listSpec = specs.find((s) => ['ListPrice', 'StrikethroughPrice'].includes(priceTypeOf(s)));
  const saleSpec = specs.find((s) => priceTypeOf(s) === 'SalePrice');
  // With no offer price, the selling price is the unmarked spec, else the one marked SalePrice. A spec of any other
  // type (MSRP, SRP, MinimumAdvertisedPrice, InvoicePrice) is neither what the page sells at nor its list price.
  const bothEnds = minCents !== null && minCents === maxCents ? offer.minPrice : undefined;
  const selling = centsOf(offer.price ?? offer.lowPrice ?? bothEnds ?? specs.find((s) => !s.priceType)?.price ?? saleSpec?.price);
  const list = listSpec ? centsOf(listSpec.price) : null;
  if (selling === null && list === null) return null;
  if (currency !== 'USD') return { ok: false, outcome: 'empty', reason: `the offer is priced in ${currency || 'no stated currency'}, not USD` };
  const specCurrency = listSpec ? String(listSpec.priceCurrency ?? currency).toUpperCase() : currency;
  if (specCurrency !== 'USD') return { ok: false, outcome: 'empty', reason: `the list price is in ${specCurrency}, not USD` };
  const prices: OfferReading['prices'] = [];
  if (list !== null) {
    prices.push({ price_cents: list, basis: 'list' });
    if (selling !== null && selling < list) prices.push({ price_cents: selling, basis: 'promotional' });
  } else if (selling !== null) {
    prices.push({ price_cents: saleSpec ? (centsOf(saleSpec.price) ?? selling) : selling, basis: saleSpec ? 'promotional' : 'unspecified' });
  }
  const availability = typeof offer.availability === 'string' ? offer.availability.replace(/^https?:\/\/schema\.org\//, '') : null;
  return { ok: true, reading: { prices, availability, jsonld: blocks } };
}
