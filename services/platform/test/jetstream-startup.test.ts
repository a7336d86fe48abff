import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectNats, ensureStreams, isJetStreamNotReady, setUpWorkerConsumer, untilJetStreamAnswers, type NatsConnection } from '../src/index';
import { streamNames } from '@evidence-record/contract';
import { isolationPrefix } from '@evidence-record/test-support/db';
import { freePort } from '@evidence-record/test-support/launcher';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * A worker that starts before JetStream answers (a cluster electing its
 * leaders; here, quicker to arrange, a real nats-server without JetStream
 * that is then restarted with it on the same port) waits for it rather than
 * exits: its set-up is tried again and succeeds once JetStream answers.
 */
const bin = process.env.NATS_SERVER_BIN ?? 'nats-server';
const store = mkdtempSync(join(tmpdir(), 'er-js-startup-'));
let server: ChildProcess | null = null;
let nc: NatsConnection | null = null;

function startServer(port: number, jetStream: boolean): ChildProcess {
  return spawn(bin, ['-a', '127.0.0.1', '-p', String(port), ...(jetStream ? ['-js', '-sd', store] : [])], { stdio: 'ignore' });
}

async function stopServer(): Promise<void> {
  const s = server;
  server = null;
  if (!s || s.exitCode !== null) return;
  await new Promise((resolve) => {
    s.once('exit', resolve);
    s.kill('SIGKILL');
  });
}

afterAll(async () => {
  await nc?.close().catch(() => undefined);
  await stopServer();
  rmSync(store, { recursive: true, force: true });
});

describe('a long-running service starting before JetStream answers', () => {
  it('waits for JetStream, then creates its streams and consumer, where a plain set-up fails', async () => {
    const port = await freePort();
    server = startServer(port, false);
    nc = await connectNats(`nats://127.0.0.1:${port}`, 'jetstream-startup');
    const { natsPrefix } = isolationPrefix('jsstart');

    const plain = await ensureStreams(nc, natsPrefix).then(() => null, (err: unknown) => err);
    expect(isJetStreamNotReady(plain), String(plain)).toBe(true);

    const warnings: unknown[] = [];
    const connection = nc;
    // What the email worker and the watch fan-out call at start-up.
    const setUp = setUpWorkerConsumer({ nc: connection, natsPrefix, consumes: 'alerts', durable: 'startup-worker', ackWaitMs: 30_000, log: { warn: (o: unknown) => void warnings.push(o) } });
    // JetStream arrives only after an attempt has failed and is waiting to be tried again.
    await waitFor('a set-up attempt refused for want of JetStream', async () => warnings.length > 0, 20_000);
    await stopServer();
    server = startServer(port, true);

    const consumer = await setUp;
    expect(consumer.stream).toBe(streamNames(natsPrefix).alerts.stream);
    const info = await (await connection.jetstreamManager()).consumers.info(consumer.stream, 'startup-worker');
    expect(info.config.filter_subject).toBe(streamNames(natsPrefix).alerts.requested);
  }, 60_000);

  it('does not wait on an error that is not about readiness', async () => {
    const started = Date.now();
    const failing = untilJetStreamAnswers(() => Promise.reject(new Error('stream name already in use with a different configuration')), { log: { warn: () => undefined } });
    await expect(failing).rejects.toThrow(/different configuration/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
