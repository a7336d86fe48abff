import http from 'node:http';
import { signRequest } from '@evidence-record/platform';

/**
 * `node --import tsx scripts/benchmark/bare-hop.ts <port> <target>`: the
 * least an HTTP hop between two Node.js processes can cost. A node:http
 * server passes each request to the target over a keep-alive agent and pipes
 * the answer back, and does nothing else (no checks, logs or metrics).
 *
 * With BARE_HOP_SIGNING_KEY set it also signs every request it forwards as
 * the gateway does (decision 0313: over the body's digest, so it reads the
 * body first), so the service behind it answers: that is
 * the bare forwarder the gateway is compared with (docs/benchmarks.md,
 * section 1). Without it, two of them in front of the gateway measure what
 * the MCP path's two extra hops cost on this machine before any MCP work.
 */
const [port, target] = process.argv.slice(2);
const upstream = new URL(target ?? '');
const signingKey = process.env.BARE_HOP_SIGNING_KEY;
/** The service behind it, whose key BARE_HOP_SIGNING_KEY is (signatures are per service). */
const service = process.env.BARE_HOP_SERVICE ?? 'record';
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection'];

http
  .createServer((req, res) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.includes(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const path = req.url ?? '/';
    const send = (body: Buffer | null) => {
      const forwarded = http.request({ host: upstream.hostname, port: upstream.port, path, method: req.method, headers, agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forwarded.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      if (body) forwarded.end(body);
      else req.pipe(forwarded);
    };
    if (!signingKey) return send(null);
    // The signature covers the body's digest (decision 0313), so the body is read first, as the gateway reads it.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      signRequest(signingKey, { service, method: req.method ?? 'GET', pathAndQuery: path, body }, headers);
      send(body);
    });
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
