import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { connect } from 'nats';
import pg from 'pg';
import { streamNames } from '@evidence-record/contract';
import { natsConnectOptions } from '@evidence-record/platform';
import { SMTPServer } from 'smtp-server';
import type { BenchStack } from './stack';

/**
 * A real SMTP server in the bench process that keeps only what the fan-out
 * figure needs: per alert id (the X-Evidence-Record-Alert header) how many
 * times it arrived, the Signal it is about and when it first arrived.
 */
export class AlertSink {
  readonly arrivals = new Map<string, { count: number; signalId: string | null; at: number; to: string }>();
  private readonly server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 1024 * 1024,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const alertId = /^X-Evidence-Record-Alert:\s*(\S+)/im.exec(raw)?.[1] ?? /^Message-ID:\s*<([^@>]+)@/im.exec(raw)?.[1] ?? `unidentified-${this.arrivals.size}`;
          const seen = this.arrivals.get(alertId);
          if (seen) seen.count++;
          else {
            this.arrivals.set(alertId, {
              count: 1,
              signalId: /\/api\/v1\/signals\/(sig_[0-9a-z]{12})/.exec(raw)?.[1] ?? null,
              at: Date.now(),
              to: session.envelope.rcptTo.map((r) => r.address).join(','),
            });
          }
          callback();
        });
      },
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server as unknown as { server: { address(): AddressInfo } }).server.address().port;
    return this.port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  forSignal(signalId: string): { unique: number; messages: number; recipients: number; lastAt: number; firstAt: number } {
    let unique = 0;
    let messages = 0;
    let lastAt = 0;
    let firstAt = Infinity;
    const recipients = new Set<string>();
    for (const a of this.arrivals.values()) {
      if (a.signalId !== signalId) continue;
      unique++;
      messages += a.count;
      recipients.add(a.to);
      lastAt = Math.max(lastAt, a.at);
      firstAt = Math.min(firstAt, a.at);
    }
    return { unique, messages, recipients: recipients.size, lastAt, firstAt };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export interface FanoutResult {
  replicas: number;
  watchers: number;
  signalId: string;
  /** Release command started → the last of the watchers' emails arrived (null: not all arrived in time). */
  seconds: number | null;
  /** Release command started → every alert row existed (the watch service's fan-out). */
  fanoutSeconds: number | null;
  firstEmailSeconds: number | null;
  uniqueAlerts: number;
  messages: number;
  duplicates: number;
  recipients: number;
  sentInDatabase: number;
  /** Emails per second between the first and the last arrival. */
  emailsPerSecond: number;
  timedOut: boolean;
}

/** 10,000 organisations, each with one account, inserted once (the watches are added per run). */
export async function insertWatchers(client: pg.Client, watchers: number): Promise<void> {
  await client.query(`INSERT INTO organizations (org_id, name, plan_id) SELECT 'org_bench_w' || i, 'Bench watcher ' || i, 'pro' FROM generate_series(1, $1::int) i ON CONFLICT DO NOTHING`, [watchers]);
  await client.query(
    `INSERT INTO accounts (account_id, org_id, email) SELECT 'acc_bench_w' || i, 'org_bench_w' || i, 'watcher' || i || '@watchers.bench.example' FROM generate_series(1, $1::int) i ON CONFLICT DO NOTHING`,
    [watchers],
  );
}

/**
 * One Signal on a product every watcher watches, taken through the operator
 * CLI exactly as curation does it (capture import → candidate open →
 * approve → release), then timed until the SMTP sink holds every email.
 */
export async function measureFanout(opts: {
  stack: BenchStack;
  client: pg.Client;
  sink: AlertSink;
  productId: string;
  watchers: number;
  replicas: number;
  releaseDate: string;
  natsUrl: string;
  natsPrefix: string;
  workDir: string;
  timeoutMs: number;
  log: (msg: string) => void;
}): Promise<FanoutResult> {
  const { stack, client, sink, productId } = opts;
  await client.query(`INSERT INTO watches (account_id, product_id) SELECT 'acc_bench_w' || i, $2 FROM generate_series(1, $1::int) i ON CONFLICT DO NOTHING`, [opts.watchers, productId]);

  const before = await client.query<{ state_id: string }>(
    `SELECT state_id FROM history_states WHERE product_id = $1 AND classification = 'comparable' ORDER BY observed_from DESC, state_id DESC LIMIT 1`,
    [productId],
  );
  if (!before.rows[0]) throw new Error(`product ${productId} has no comparable history state`);
  const today = new Date().toISOString().slice(0, 10);
  const bundle = {
    captures: [
      {
        product_id: productId,
        source: { kind: 'manufacturer', url: `https://bench.example/products/${productId}`, retailer: null },
        observed_at: today,
        preserved: { path: `captures/bench/${productId}-${Date.now()}.html`, sha256: 'b'.repeat(64) },
        label: {
          classification: 'comparable',
          serving: { size: 12.5, unit: 'g', servings_per_container: 30, description: '1 scoop (12.5 g)' },
          blends: [],
          ingredients: [
            { declared_name: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine', amount: 287, unit: 'mg' },
            { declared_name: 'Beta-Alanine', ingredient_id: 'ing_beta_alanine', amount: 3.3, unit: 'g' },
          ],
        },
        prices: [],
      },
    ],
  };
  const file = join(opts.workDir, `fanout-${productId}.json`);
  await writeFile(file, JSON.stringify(bundle));
  const imported = await stack.admin('capture', 'import', '--file', file);
  const after = (imported.states_created as string[] | undefined)?.[0];
  if (!after) throw new Error(`capture import created no state: ${JSON.stringify(imported)}`);
  const candidate = await stack.admin('candidate', 'open', '--product', productId, '--dimension', 'formula', '--before', before.rows[0].state_id, '--after', after, '--summary', 'Caffeine per serving changed (benchmark fan-out).');
  const approved = await stack.admin('candidate', 'approve', String(candidate.candidate_id), '--reviewer', 'bench reviewer', '--note', 'benchmark fan-out');
  const signalId = String(approved.signal_id);

  opts.log(`releasing ${signalId} to ${opts.watchers} watchers (${opts.replicas} email worker${opts.replicas > 1 ? 's' : ''})`);
  const started = Date.now();
  // Each fan-out run is its own release batch, so each runs on a later day of the CLI's test clock.
  await stack.adminWith({ NODE_ENV: 'test', ER_TEST_TODAY: opts.releaseDate }, 'signal', 'release', '--by', 'bench');
  let fanoutAt: number | null = null;
  let lastRowCheck = 0;
  let timedOut = false;
  for (;;) {
    const now = Date.now();
    if (sink.forSignal(signalId).unique >= opts.watchers) break;
    if (fanoutAt === null && now - lastRowCheck >= 500) {
      lastRowCheck = now;
      const rows = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM alerts WHERE signal_id = $1', [signalId]);
      if (rows.rows[0]!.n >= opts.watchers) fanoutAt = Date.now();
    }
    if (now - started > opts.timeoutMs) {
      timedOut = true;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const done = sink.forSignal(signalId);
  // A duplicate would arrive after the last first copy: give it a moment before counting.
  await new Promise((r) => setTimeout(r, 3000));
  const settled = sink.forSignal(signalId);
  const sent = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM alerts WHERE signal_id = $1 AND status = 'sent'`, [signalId]);
  if (fanoutAt === null) {
    const rows = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM alerts WHERE signal_id = $1', [signalId]);
    if (rows.rows[0]!.n >= opts.watchers && !timedOut) fanoutAt = done.lastAt;
  }
  return {
    replicas: opts.replicas,
    watchers: opts.watchers,
    signalId,
    seconds: timedOut ? null : (done.lastAt - started) / 1000,
    fanoutSeconds: fanoutAt === null ? null : (fanoutAt - started) / 1000,
    firstEmailSeconds: settled.unique > 0 ? (settled.firstAt - started) / 1000 : null,
    uniqueAlerts: settled.unique,
    messages: settled.messages,
    duplicates: settled.messages - settled.unique,
    recipients: settled.recipients,
    sentInDatabase: sent.rows[0]!.n,
    emailsPerSecond: settled.unique > 1 ? (settled.unique - 1) / ((settled.lastAt - settled.firstAt) / 1000) : 0,
    timedOut,
  };
}

/**
 * After a run that did not finish in time, the rest of its alerts would
 * compete with the next run: they are cancelled (the worker acknowledges a
 * cancelled alert without sending) and the ALERTS consumer is waited on
 * until it holds nothing.
 */
export async function drainAlerts(opts: { client: pg.Client; signalId: string; natsUrl: string; natsPrefix: string; durable?: string; timeoutMs: number }): Promise<boolean> {
  await opts.client.query(`UPDATE alerts SET status = 'cancelled', last_error = 'benchmark: run over its time limit' WHERE signal_id = $1 AND status = 'pending'`, [opts.signalId]);
  const nc = await connect({ ...natsConnectOptions(opts.natsUrl), name: 'bench-drain' });
  try {
    const jsm = await nc.jetstreamManager();
    const deadline = Date.now() + opts.timeoutMs;
    while (Date.now() < deadline) {
      const info = await jsm.consumers.info(streamNames(opts.natsPrefix).alerts.stream, opts.durable ?? 'email-worker');
      if (info.num_pending + info.num_ack_pending === 0) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  } finally {
    await nc.close();
  }
}
