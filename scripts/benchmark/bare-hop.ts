import http from 'node:http';

/**
 * `node --import tsx scripts/benchmark/bare-hop.ts <port> <target>`: the
 * least an HTTP hop between two Node.js processes can cost. It reads the
 * request, forwards it over a keep-alive connection, reads the answer and
 * sends it back, and does nothing else (no checks, logs or metrics). Two of
 * them in front of a REST call measure what the MCP path's two extra hops
 * cost on this machine before any MCP work is done.
 */
const [port, target] = process.argv.slice(2);
const upstream = new URL(target ?? '');
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

http
  .createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const forwarded = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const bytes = Buffer.concat(chunks);
          res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json', 'content-length': bytes.length });
          res.end(bytes);
        });
      });
      forwarded.on('error', () => res.writeHead(502).end());
      forwarded.end(Buffer.concat(body));
    });
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
