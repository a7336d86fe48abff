import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody } from '../src/http/io';

/**
 * readBody on a real server and raw sockets: a body already in the packet of
 * its headers is read from the buffer at once; one still on its way is
 * waited for; the limit holds either way.
 */
let server: Server;
let port: number;
const LIMIT = 64;

beforeAll(async () => {
  server = createServer((req, res) => {
    // After one turn, as the gateway reads it (after the key lookup): a body sent with its headers has arrived by then.
    setImmediate(() => {
      const complete = req.complete;
      void readBody(req, LIMIT).then((read) => {
        res.setHeader('Connection', 'close');
        res.end(JSON.stringify({ complete, ok: read.ok, body: read.ok ? read.body.toString('utf8') : null }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends the parts with a pause between them and gives back the answer's JSON body. */
function send(parts: string[], pauseMs = 0): Promise<{ complete: boolean; ok: boolean; body: string | null }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    socket.on('end', () => resolve(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { complete: boolean; ok: boolean; body: string | null }));
    socket.on('error', reject);
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0 && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        socket.write(part);
      }
    });
  });
}

const head = (extra: string) => `POST /x HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe('readBody', () => {
  it('reads a body that came with its headers from the buffer', async () => {
    const body = '{"identifier":"IV Surge"}';
    expect(await send([`${head(`Content-Length: ${body.length}\r\n`)}${body}`])).toEqual({ complete: true, ok: true, body });
  });

  it('reads a chunked body that came whole, and refuses one over the limit though it came whole', async () => {
    const small = '{"a":1}';
    const chunk = (s: string) => `${s.length.toString(16)}\r\n${s}\r\n`;
    expect(await send([`${head('Transfer-Encoding: chunked\r\n')}${chunk(small)}${chunk(small)}0\r\n\r\n`])).toEqual({ complete: true, ok: true, body: small + small });
    const big = 'x'.repeat(40);
    expect(await send([`${head('Transfer-Encoding: chunked\r\n')}${chunk(big)}${chunk(big)}0\r\n\r\n`])).toMatchObject({ complete: true, ok: false });
  });

  it('waits for a body still on its way, in pieces', async () => {
    const body = '{"identifier":"IV Surge"}';
    expect(await send([head(`Content-Length: ${body.length}\r\n`), body.slice(0, 10), body.slice(10)], 50)).toEqual({ complete: false, ok: true, body });
  });

  it('gives an empty body for a request without one', async () => {
    expect(await send([`GET /x HTTP/1.1\r\nHost: t\r\n\r\n`])).toEqual({ complete: true, ok: true, body: '' });
  });
});
