import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import { RestartableSmtpServer, loopbackSmtpServer, smtpRefusal } from '@evidence-record/test-support/smtp';

export interface Delivered {
  to: string[];
  alertId: string | null;
  messageId: string | null;
  raw: string;
  at: number;
}

interface Held {
  session: SMTPServerSession;
  raw: string;
  to: string[];
  callback: (err?: Error | null) => void;
}

/**
 * A real SMTP server for fault tests, with the failures a mail relay has:
 * it can be stopped and started again on the same port (an outage), refuse
 * chosen recipients with a permanent 5xx, and hold messages it has received
 * without answering yet (`hold()`), so that a test can kill a sender while
 * mail is in flight but not accepted. A held message whose sender went away
 * is never accepted: it counts as not delivered, as in SMTP.
 */
export class MailSink extends RestartableSmtpServer {
  readonly delivered: Delivered[] = [];
  /** Recipients refused at RCPT TO with 550 (a permanently failing address). */
  readonly refuse = new Set<string>();
  received = 0;
  private held: Held[] = [];
  private holding = false;
  private closedSessions = new Set<string>();

  protected create(): SMTPServer {
    return loopbackSmtpServer({
      onRcptTo: (address, _session, callback) => {
        if (this.refuse.has(address.address.toLowerCase())) {
          callback(smtpRefusal(550, `5.1.1 <${address.address}>: mailbox unavailable`));
          return;
        }
        callback();
      },
      onClose: (session) => {
        this.closedSessions.add(session.id);
      },
      onMessage: (raw, session, callback) => {
        this.received++;
        const held: Held = { session, raw, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), callback };
        if (this.holding) this.held.push(held);
        else this.accept(held);
      },
    });
  }

  private accept(h: Held): void {
    if (this.closedSessions.has(h.session.id)) return;
    this.delivered.push({
      to: h.to,
      alertId: /^X-Evidence-Record-Alert:\s*(\S+)/im.exec(h.raw)?.[1] ?? null,
      messageId: /^Message-ID:\s*(.+)$/im.exec(h.raw)?.[1]?.trim() ?? null,
      raw: h.raw,
      at: Date.now(),
    });
    h.callback();
  }

  /** From now on, messages are received but not answered until `release()`. */
  hold(): void {
    this.holding = true;
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Held messages whose sender is still connected, waiting for an answer. */
  get heldOpen(): number {
    return this.held.filter((h) => !this.closedSessions.has(h.session.id)).length;
  }

  /** Answers every held message whose sender is still connected, and stops holding. */
  release(): void {
    this.holding = false;
    const held = this.held;
    this.held = [];
    for (const h of held) this.accept(h);
  }

  /** An outage: open connections are cut and nothing listens on the port until `start()`. */
  override async stop(): Promise<void> {
    const s = this.server as unknown as { connections?: Set<{ close?: () => void; _socket?: { destroy: () => void } }> };
    for (const c of s.connections ?? []) c._socket?.destroy();
    await super.stop();
  }

  /** Deliveries per alert id (an alert delivered twice shows up as 2). */
  countsByAlert(): Map<string, number> {
    const m = new Map<string, number>();
    for (const d of this.delivered) if (d.alertId) m.set(d.alertId, (m.get(d.alertId) ?? 0) + 1);
    return m;
  }
}
