import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '@evidence-record/contract';


export type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' };

const EMPTY_BODY: BodyRead = Object.freeze({ ok: true, body: Buffer.alloc(0) });

/**
 * Reads the request body, refusing anything over the limit: by the declared
 * Content-Length before reading a byte, and by counting what actually
 * arrives (a chunked body has no declared length).
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && (!/^\d+$/.test(declared) || Number(declared) > limit)) {
    // Discard what the client sends so that it can read the 413 (the connection is closed after it).
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  if (req.readableEnded) return Promise.resolve(EMPTY_BODY);
  // Complete already: a request without a body (a GET, as most are), or a small body that came in the
  // packet of its headers (nearly every POST). Read from the stream's buffer: no listeners, no waiting.
  if (req.complete) return Promise.resolve(readBuffered(req, limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        cleanup();
        req.resume();
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ ok: true, body: Buffer.concat(chunks, total) });
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAborted = () => {
      cleanup();
      reject(new Error('client aborted the request'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

function readBuffered(req: IncomingMessage, limit: number): BodyRead {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
    total += chunk.length;
    if (total > limit) {
      req.resume();
      return { ok: false, reason: 'too_large' };
    }
    chunks.push(chunk);
  }
  // Lets the stream end, as a request whose body was read to the end does.
  req.resume();
  if (total === 0) return EMPTY_BODY;
  return { ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) };
}

/** Query parameters as an object; a repeated name becomes an array (which the strict schemas refuse). */
export function parseQuery(url: string): Record<string, string | string[]> {
  const i = url.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (i < 0) return out;
  for (const [name, value] of new URLSearchParams(url.slice(i + 1))) {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

export function pathOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? url : url.slice(0, i);
}

/** Sent on every response: nothing here is meant for a browser page. */
export const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function sendBytes(res: ServerResponse, status: number, body: Buffer, headers: Record<string, string>, contentType = 'application/json; charset=utf-8'): void {
  if (res.headersSent || res.destroyed) return;
  // One writeHead with every header, not a setHeader each: node stores them in one pass and
  // sends them with the body in one write. `headers` is completed in place.
  headers['Content-Type'] = contentType;
  headers['Content-Length'] = String(body.length);
  res.writeHead(status, headers);
  res.end(body);
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string>): void {
  sendBytes(res, status, Buffer.from(html, 'utf8'), headers, 'text/html; charset=utf-8');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  sendBytes(res, status, Buffer.from(JSON.stringify(body), 'utf8'), headers);
}
