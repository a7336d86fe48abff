import { type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { connect } from 'node:net';
import { launch, type ServiceName } from '@evidence-record/test-support/launcher';
export { waitFor } from '@evidence-record/test-support/wait';
import { testSigningEnv } from '@evidence-record/test-support/signing';

/** One sample of the Prometheus text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses a /metrics page (text format 0.0.4): every sample line, comments skipped. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** Samples of `name` whose labels include `labels`. */
export function select(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of the matching samples, or undefined when there is none (the series is absent). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = select(samples, name, labels);
  return found.length === 0 ? undefined : found.reduce((sum, s) => sum + s.value, 0);
}

/** HELP/TYPE lines declare a series even before its first sample. */
export function declared(text: string, name: string, type: 'counter' | 'gauge' | 'histogram'): boolean {
  return text.includes(`# TYPE ${name} ${type}`);
}

export async function scrape(port: number): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!res.ok) throw new Error(`/metrics on :${port} answered ${res.status}`);
  const text = await res.text();
  return { text, samples: parseMetrics(text) };
}

/** JSON log lines a process printed (pino), skipping anything else it wrote. */
export function jsonLines(lines: string[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a line split across two chunks; the test reads whole lines only
    }
  }
  return out;
}

export interface ServiceProcess {
  name: ServiceName;
  port: number;
  child: ChildProcess;
  /** Everything it printed, line by line. */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: () => void;
}

/** One service's real entrypoint as a child process, ready when /readyz answers 200. */
export async function spawnService(name: ServiceName, port: number, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const p = launch({ service: name, port, env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...testSigningEnv(name), ...env } });
  try {
    await p.ready();
  } catch (err) {
    p.kill();
    throw err;
  }
  return { name, port, child: p.child, lines: p.lines, exited: p.exited, kill: () => p.kill() };
}

/** The entrypoint as a child process, without waiting for anything (for processes expected to refuse to start). */
export function startProcess(name: ServiceName, env: NodeJS.ProcessEnv): Omit<ServiceProcess, 'port'> {
  const p = launch({ service: name, env });
  return { name, child: p.child, lines: p.lines, exited: p.exited, kill: () => p.kill() };
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One HTTP request on its own connection (no pooling), answered in full. */
export function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; agent?: http.Agent } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** True when a new TCP connection to the port is refused (the server stopped listening). */
export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** A promise with its resolver: the test decides when a held request may go on. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
