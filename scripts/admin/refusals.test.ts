import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatStackEnv } from '@evidence-record/platform';
import { dsldLabel } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { freePort, operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * Expected failures of the verbs that read a source are refusals: exit 1,
 * one JSON line `{"error": <code>, "message"}` with the code docs/monitor.md
 * gives, nothing on stderr that looks like a stack trace. The CLI runs as an
 * operator runs it (its own process, the stack file for its configuration,
 * nothing else but PATH and HOME), against a source server that misbehaves in
 * each of the ways a real one does: refusing connections, never answering,
 * answering 404 or 500, answering something that is not a label, redirecting
 * forever. Composed here: no fixture of this file is a real record.
 */
const root = new URL('../../', import.meta.url).pathname;
let db: TestDatabase;
let runDir: string;
let server: http.Server;
let origin: string;
/** A port nothing listens on (reserved for this file, never bound). */
let closedPort: number;
const held = new Set<Socket>();

interface Run {
  code: number;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

function admin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      operatorCliArgs([...args, '--json']),
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ER_RUN_DIR: runDir, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const last = stdout.trim().split('\n').at(-1) ?? '{}';
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, json: JSON.parse(last.startsWith('{') ? last : '{}'), stdout, stderr });
      },
    );
  });
}

/** A refusal as documented: exit 1, exactly one JSON line on stdout, never `internal`, no stack trace. */
function expectRefusal(run: Run, code: string): void {
  expect(run.stderr, run.stderr).not.toMatch(/^\s{4}at /m);
  expect(run.json.error, JSON.stringify(run.json)).toBe(code);
  expect(run.code).toBe(1);
  expect(typeof run.json.message).toBe('string');
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
}

beforeAll(async () => {
  db = await emptyDatabase();
  closedPort = await freePort();
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path.startsWith('/silent/')) {
      // Accepts the request and never answers (the socket is closed after the test).
      held.add(req.socket);
      return;
    }
    if (path.startsWith('/status500/')) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
    if (path.startsWith('/status404/')) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such label');
    if (path.startsWith('/html/')) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><p>Not a label.</p>');
    if (path.startsWith('/loop/')) return void res.writeHead(302, { location: path }).end();
    if (path.startsWith('/good/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(dsldLabel({ id: 77, brand: 'Composed Labs', name: 'Test Pre', caffeineMg: 150 })));
    res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  runDir = await mkdtemp(join(tmpdir(), 'er-refusals-'));
  // The stack file as `npm run up` writes it: the local stack admits loopback sources; short timeouts for the silent host.
  await writeFile(
    join(runDir, 'stack.env'),
    formatStackEnv({ DATABASE_URL: db.url, MONITOR_ALLOW_LOCALHOST: '1', MONITOR_HOST_INTERVAL_MS: '0', MONITOR_CONNECT_TIMEOUT_MS: '500', MONITOR_READ_TIMEOUT_MS: '500', DSLD_BASE_URL: `${origin}/good` }),
    { mode: 0o600 },
  );
}, 60_000);

afterAll(async () => {
  for (const s of held) s.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await db?.drop();
  if (runDir) await rm(runDir, { recursive: true, force: true });
});

describe('product add-from-dsld', () => {
  it('reads the DSLD the stack file names (the local stack\'s demo DSLD), with no extra variables', async () => {
    const run = await admin(['product', 'add-from-dsld', '--label', '77']);
    expect(run.stderr).toBe('');
    expect(run.json).toMatchObject({ name: expect.stringContaining('Test Pre'), source_id: expect.any(Number) });
  }, 60_000);

  it.each([
    ['an unreachable host', (): string => `http://127.0.0.1:${closedPort}/dsld/v9`, {}, 'connection_failed'],
    ['a host that does not resolve', (): string => 'http://dsld.does-not-exist.invalid/dsld/v9', {}, 'dns_failure'],
    ['a refused address (loopback outside the local stack)', (): string => `${origin}/good`, { MONITOR_ALLOW_LOCALHOST: '0' }, 'refused_address'],
    ['a host that never answers', (): string => `${origin}/silent`, {}, 'timeout'],
    ['a 500', (): string => `${origin}/status500`, {}, 'source_unreadable'],
    ['a 404 (no such label)', (): string => `${origin}/status404`, {}, 'not_found'],
    ['a body that is not a label', (): string => `${origin}/html`, {}, 'source_unreadable'],
    ['a redirect loop', (): string => `${origin}/loop`, {}, 'too_many_redirects'],
  ] as const)('answers %s with a refusal', async (_what, base, extra, code) => {
    expectRefusal(await admin(['product', 'add-from-dsld', '--label', '1'], { DSLD_BASE_URL: base(), ...extra }), code);
  }, 60_000);
});

describe('source add', () => {
  let productId: string;
  beforeAll(async () => {
    productId = String((await admin(['product', 'add', '--brand', 'Composed Labs', '--name', 'Source Pre'])).json.product_id);
  }, 60_000);

  it('admits a loopback source in the local stack with no extra variables', async () => {
    const run = await admin(['source', 'add', '--product', productId, '--kind', 'offer_page', '--url', `${origin}/html/offer`]);
    expect(run.stderr).toBe('');
    expect(run.json).toMatchObject({ source_id: expect.any(Number), url: `${origin}/html/offer` });
  }, 60_000);

  it.each([
    ['a refused address (cloud metadata)', (): string => 'http://169.254.169.254/latest/meta-data/', {}, 'refused_address'],
    ['loopback outside the local stack', (): string => `${origin}/x`, { MONITOR_ALLOW_LOCALHOST: '0' }, 'refused_address'],
    ['a host that does not resolve', (): string => 'https://shop.does-not-exist.invalid/p', {}, 'dns_failure'],
    ['a scheme other than http(s)', (): string => 'ftp://example.com/p', {}, 'unsupported_scheme'],
    ['something that is not a URL', (): string => 'not a url at all', {}, 'invalid_url'],
  ] as const)('answers %s with a refusal', async (_what, url, extra, code) => {
    expectRefusal(await admin(['source', 'add', '--product', productId, '--kind', 'offer_page', '--url', url()], extra), code);
  }, 60_000);
});

describe('monitor run-once', () => {
  it('records every check and refuses, naming each source it could not read and why, with the counts', async () => {
    const productId = String((await admin(['product', 'add', '--brand', 'Composed Labs', '--name', 'Run Pre'])).json.product_id);
    const urls = [`http://127.0.0.1:${closedPort}/p`, `${origin}/silent/p`, `${origin}/status500/p`, `${origin}/html/p`, `${origin}/loop/p`];
    for (const url of urls) expect((await admin(['source', 'add', '--product', productId, '--kind', 'offer_page', '--url', url])).code).toBe(0);
    const run = await admin(['monitor', 'run-once', '--product', productId]);
    expectRefusal(run, 'sources_unreadable');
    expect(run.json).toMatchObject({ checked: 5, valid: 0 });
    const failures = run.json.failures as Array<{ url: string; outcome: string; reason: string }>;
    const reasonOf = (url: string) => failures.find((f) => f.url === url)?.reason;
    expect(failures).toHaveLength(5);
    // An unreachable host's robots.txt cannot be read either, which the monitor takes as a refusal to be read.
    expect(reasonOf(urls[0]!)).toMatch(/^connection_failed|robots\.txt/);
    expect(reasonOf(urls[1]!)).toMatch(/^timeout/);
    expect(reasonOf(urls[2]!)).toMatch(/500/);
    expect(reasonOf(urls[3]!)).toBeTruthy();
    expect(reasonOf(urls[4]!)).toMatch(/^too_many_redirects/);
    expect(run.json.message).toContain('5 of 5 checks');
  }, 120_000);

  it('answers a run where every source was read with the counts, exit 0', async () => {
    const productId = String((await admin(['product', 'add', '--brand', 'Composed Labs', '--name', 'Good Pre'])).json.product_id);
    expect((await admin(['source', 'add', '--product', productId, '--kind', 'dsld_label', '--url', `${origin}/good/label/77`])).code).toBe(0);
    const run = await admin(['monitor', 'run-once', '--product', productId]);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ checked: 1, valid: 1 });
  }, 60_000);
});
