import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transporter } from 'nodemailer';
import { classifySmtpFailure, createMailer } from '../src/smtp';
import { SmtpSink } from './support/smtp-sink';

/**
 * The transport against real sockets: a real SMTP server (smtp-server), a
 * stopped one, and bare TCP servers that misbehave before the greeting.
 */
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function mailer(port: number, maxConnections = 2, timeoutMs = 1_000): Transporter {
  const m = createMailer(`smtp://127.0.0.1:${port}`, { timeoutMs, maxConnections });
  cleanup.push(() => m.close());
  return m;
}

async function sink(): Promise<SmtpSink> {
  const s = new SmtpSink();
  await s.start();
  cleanup.push(() => s.stop());
  return s;
}

const mail = (i: number) => ({ from: 'alerts@alerts.test', to: `watcher${i}@alerts.test`, subject: `alert ${i}`, text: `alert ${i}\n`.repeat(20), html: `<p>alert ${i}</p>` });

/** Settles within `ms` or says it hung (a pool without free slots never calls back). */
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then((v) => ({ value: v }), (err: unknown) => ({ err })), new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms))]);

describe('the SMTP transport', () => {
  it('sends one email after another on a pooled connection without waiting for delayed ACKs (TCP_NODELAY)', async () => {
    // Without TCP_NODELAY each email waits for the server's delayed ACK (~40 ms) before its last write leaves.
    const s = await sink();
    const m = mailer(s.port, 1);
    await m.sendMail(mail(0));
    const times: number[] = [];
    for (let i = 1; i <= 40; i++) {
      const t = performance.now();
      await m.sendMail(mail(i));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    // Nagle with delayed ACKs makes every send wait (43 ms or more each, measured with noDelay off), so even the
    // fastest quarter of sends shows it; a loaded machine slows some sends but not all, so the median is not used.
    const fastestQuarter = times[times.length >> 2]!;
    expect(s.received).toHaveLength(41);
    expect(fastestQuarter).toBeLessThan(20);
  });

  it('comes back after an outage longer than its pool: refused connects never use up the pool', async () => {
    const s = await sink();
    const port = s.port;
    await s.stop();
    const m = mailer(port, 2);
    // Three rounds of refusals on a pool of two connections.
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([within(m.sendMail(mail(1)), 5_000), within(m.sendMail(mail(2)), 5_000)]);
      for (const r of results) {
        expect(r).not.toBe('hung');
        const failure = classifySmtpFailure((r as { err: unknown }).err);
        expect(failure.kind).toBe('unavailable');
        expect(failure.message).toContain('ECONNREFUSED');
      }
    }
    await s.start(port);
    const back = await Promise.all([within(m.sendMail(mail(3)), 5_000), within(m.sendMail(mail(4)), 5_000)]);
    expect(back.map((r) => (r === 'hung' ? r : 'value' in r ? 'sent' : String((r as { err: unknown }).err)))).toEqual(['sent', 'sent']);
    expect(s.received.map((r) => r.to[0]).sort()).toEqual(['watcher3@alerts.test', 'watcher4@alerts.test']);
  });

  it('fails a send, as an outage, when the server closes the connection before its greeting or never greets', async () => {
    for (const behaviour of ['close', 'silent'] as const) {
      const server = net.createServer((socket) => {
        if (behaviour === 'close') socket.destroy();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
      server.on('connection', (socket) => cleanup.push(() => void socket.destroy()));
      const m = mailer((server.address() as net.AddressInfo).port, 2, 500);
      const r = await within(m.sendMail(mail(1)), 5_000);
      expect(r, behaviour).not.toBe('hung');
      expect('err' in (r as object), behaviour).toBe(true);
      expect(classifySmtpFailure((r as { err: unknown }).err).kind, behaviour).toBe('unavailable');
    }
  });
});
