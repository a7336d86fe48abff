import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { dsldLabel } from './labels';

/**
 * A local source server (decision 1009): plays the DSLD API v9
 * (`/dsld/v9/label/{id}`) and retailer pages with schema.org JSON-LD
 * (`/shop/{retailer}/{slug}`), with ETag / 304, robots.txt, and
 * per-path behaviours a test sets between checks (status, Retry-After,
 * delay, redirect, raw body, a body sent a byte at a time). It ignores the Host header, so any number of
 * host names resolved to it act as separate hosts.
 */
export interface OfferSpec {
  name: string;
  /** The price the page sells at. */
  price: number;
  /** A price the page marks as the list price (priceType ListPrice), or null. */
  listPrice?: number | null;
  /** Mark the list price as StrikethroughPrice instead of ListPrice. */
  strikethrough?: boolean;
  currency?: string;
  availability?: string;
  /**
   * Lay the prices out as a large supplement retailer's markup does (`../shared/sources.md`): the offer's own
   * `price` and `priceCurrency` null, both prices in a `priceSpecification` list, the selling price unmarked and
   * the list price marked StrikethroughPrice. Composed here after that description, not copied from a real page.
   */
  specificationList?: boolean;
  /** An `aggregateRating` in the Product's JSON-LD whose review count changes on every request, as real pages' do. */
  ratings?: boolean;
  /**
   * A page of several variants (sizes, flavours): a schema.org ProductGroup whose `hasVariant` Products each have a
   * sku and an offer laid out as the page's other options say. `price` and `listPrice` above are then unused.
   */
  variants?: Array<{ sku: string; gtin12?: string; price: number; listPrice?: number | null }>;
}

export interface Behaviour {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  redirectTo?: string;
  /** Write this many bytes of body (an oversized answer). */
  bytes?: number;
  /** Send `body` one byte every `everyMs` (a slow body that never pauses long enough to trip a read timeout). */
  trickleMs?: number;
  /** Answer only this many times, then fall back to the normal content. */
  times?: number;
}

export interface SourceServer {
  server: Server;
  port: number;
  origin: string;
  labels: Map<number, Record<string, unknown>>;
  /** Labels served exactly as these bytes (real DSLD label records), before `labels`. */
  labelBodies: Map<number, string>;
  offers: Map<string, OfferSpec>;
  behaviours: Map<string, Behaviour>;
  robots: { body: string | null; status: number };
  /** Requests seen, per path (with the query string stripped). */
  hits: Map<string, number>;
  /** Requests seen (`url`: path and query as sent). */
  requests: Array<{ path: string; url: string; headers: IncomingMessage['headers']; at: number }>;
  labelUrl: (id: number) => string;
  offerUrl: (retailer: string, slug: string) => string;
  close: () => Promise<void>;
}

export function offerHtml(o: OfferSpec): string {
  const jsonld = o.variants
    ? {
        '@context': 'https://schema.org',
        '@type': 'ProductGroup',
        name: o.name,
        productGroupID: o.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        hasVariant: o.variants.map((v) => ({ '@type': 'Product', name: `${o.name} ${v.sku}`, sku: v.sku, ...(v.gtin12 ? { gtin12: v.gtin12 } : {}), offers: offerOf({ ...o, price: v.price, listPrice: v.listPrice ?? null }) })),
      }
    : productOf(o);
  // Reviews and a stock counter change on every request: pages change for reasons that are not price changes.
  return `<!doctype html><html><head><title>${o.name}</title>
<script type="application/ld+json">${JSON.stringify(jsonld)}</script></head>
<body><h1>${o.name}</h1><p class="stock">${Math.floor(Math.random() * 1000)} left</p><div class="reviews">4.${Math.floor(Math.random() * 10)} stars</div></body></html>`;
}

function offerOf(o: OfferSpec): Record<string, unknown> {
  const currency = o.currency ?? 'USD';
  const listSpec = o.listPrice
    ? { '@type': 'UnitPriceSpecification', priceType: `https://schema.org/${o.strikethrough || o.specificationList ? 'StrikethroughPrice' : 'ListPrice'}`, price: o.listPrice.toFixed(2), priceCurrency: currency }
    : null;
  const availability = `https://schema.org/${o.availability ?? 'InStock'}`;
  return o.specificationList
    ? { '@type': 'Offer', price: null, priceCurrency: null, availability, priceSpecification: [{ '@type': 'UnitPriceSpecification', price: o.price.toFixed(2), priceCurrency: currency }, ...(listSpec ? [listSpec] : [])] }
    : { '@type': 'Offer', price: o.price.toFixed(2), priceCurrency: currency, availability, ...(listSpec ? { priceSpecification: [listSpec] } : {}) };
}

function productOf(o: OfferSpec): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: o.name,
    ...(o.ratings ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: (4 + Math.random()).toFixed(1), reviewCount: 100 + Math.floor(Math.random() * 1000) } } : {}),
    offers: offerOf(o),
  };
}

export interface SourceServerOptions {
  port?: number;
  control?: (req: IncomingMessage, res: ServerResponse, path: string) => boolean;
  /** Benchmark mode: a label or offer not set is generated from its id or slug instead of 404. */
  generate?: boolean;
}

export async function startSourceServer(opts: SourceServerOptions = {}): Promise<SourceServer> {
  const labels = new Map<number, Record<string, unknown>>();
  const labelBodies = new Map<number, string>();
  const offers = new Map<string, OfferSpec>();
  const behaviours = new Map<string, Behaviour>();
  const robots = { body: null as string | null, status: 404 };
  const hits = new Map<string, number>();
  const requests: SourceServer['requests'] = [];

  const send = (req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, ...headers });
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': type, etag, ...headers });
    res.end(body);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (opts.control?.(req, res, path)) return;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (!opts.generate && requests.length < 50_000) requests.push({ path, url: req.url ?? path, headers: req.headers, at: Date.now() });
    // A behaviour is used up when the request arrives, so a request after it is answered normally even while a delayed one is pending.
    const set = behaviours.get(path);
    const b = set && (set.times === undefined || set.times > 0) ? set : undefined;
    if (b && b.times !== undefined) b.times--;
    const respond = () => {
      if (b) {
        if (b.redirectTo) {
          res.writeHead(b.status ?? 302, { location: b.redirectTo });
          res.end();
          return;
        }
        if (b.bytes) {
          res.writeHead(b.status ?? 200, { 'content-type': 'application/json', ...(b.headers ?? {}) });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let left = b.bytes;
          const write = () => {
            while (left > 0) {
              const n = Math.min(left, chunk.length);
              left -= n;
              if (!res.write(chunk.subarray(0, n))) return void res.once('drain', write);
            }
            res.end();
          };
          res.on('error', () => undefined);
          write();
          return;
        }
        if (b.trickleMs) {
          const body = Buffer.from(b.body ?? '');
          res.writeHead(b.status ?? 200, { 'content-type': 'application/json', 'content-length': String(body.length), ...(b.headers ?? {}) });
          let sent = 0;
          const timer = setInterval(() => {
            if (res.destroyed || sent >= body.length) {
              clearInterval(timer);
              if (!res.destroyed) res.end();
              return;
            }
            res.write(body.subarray(sent, ++sent));
          }, b.trickleMs);
          res.once('close', () => clearInterval(timer));
          return;
        }
        if (b.status !== undefined || b.body !== undefined) {
          res.writeHead(b.status ?? 200, { 'content-type': 'application/json', ...(b.headers ?? {}) });
          res.end(b.body ?? '');
          return;
        }
      }
      if (path === '/robots.txt') {
        if (robots.body === null) return send(req, res, robots.status, 'text/plain', 'not found');
        return send(req, res, 200, 'text/plain', robots.body);
      }
      const label = /^\/dsld\/v9\/label\/(\d+)$/.exec(path);
      if (label) {
        const id = Number(label[1]);
        const raw = labelBodies.get(id);
        if (raw !== undefined) return send(req, res, 200, 'application/json', raw);
        const l = labels.get(id) ?? (opts.generate ? dsldLabel({ id, brand: 'Bench Brand', name: `Bench ${id}`, caffeineMg: 100 + (id % 200) }) : undefined);
        return l ? send(req, res, 200, 'application/json', JSON.stringify(l)) : send(req, res, 404, 'application/json', '{"error":"not found"}');
      }
      const shop = /^\/shop\/([a-z0-9-]+)\/([a-z0-9-]+)$/.exec(path);
      if (shop) {
        const o = offers.get(`${shop[1]}/${shop[2]}`) ?? (opts.generate ? { name: shop[2]!, price: 30 + (shop[2]!.length % 20), listPrice: 30 + (shop[2]!.length % 20) } : undefined);
        return o ? send(req, res, 200, 'text/html; charset=utf-8', offerHtml(o)) : send(req, res, 404, 'text/html', '<html><body>not found</body></html>');
      }
      send(req, res, 404, 'text/plain', 'not found');
    };
    if (b?.delayMs) {
      const timer = setTimeout(() => {
        if (!res.destroyed && !res.writableEnded) respond();
      }, b.delayMs);
      res.once('close', () => clearTimeout(timer));
    } else respond();
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    server,
    port,
    origin,
    labels,
    labelBodies,
    offers,
    behaviours,
    robots,
    hits,
    requests,
    labelUrl: (id) => `${origin}/dsld/v9/label/${id}`,
    offerUrl: (retailer, slug) => `${origin}/shop/${retailer}/${slug}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
