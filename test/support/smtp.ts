import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';

/**
 * A plain loopback SMTP server (no TLS, no AUTH, no logging) that hands
 * every whole message to `onMessage`, which answers it: `answer()` accepts,
 * `answer(smtpRefusal(…))` refuses. Every test mail sink is one of these.
 */
export function loopbackSmtpServer(hooks: {
  onMessage: (raw: string, session: SMTPServerSession, answer: (err?: Error | null) => void) => void;
  onRcptTo?: SMTPServerOptions['onRcptTo'];
  onClose?: SMTPServerOptions['onClose'];
}): SMTPServer {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    ...(hooks.onRcptTo ? { onRcptTo: hooks.onRcptTo } : {}),
    ...(hooks.onClose ? { onClose: hooks.onClose } : {}),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => hooks.onMessage(Buffer.concat(chunks).toString('utf8'), session, callback));
    },
  });
  // smtp-server reports a client's connection errors on the server. A client killed mid-session (what the
  // worker-killed tests do) resets its connection: that is the test's own doing, not a fault of the sink.
  // Anything else stays an error: thrown, unless another listener (listenSmtp's, for a refused listen) takes it.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    if (server.listenerCount('error') === 1) throw err;
  });
  return server;
}

/** Listens on loopback (`port` 0: any free one) and resolves with the port. */
export async function listenSmtp(server: SMTPServer, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
}

/** An SMTP error answer (4xx temporary, 5xx permanent) as smtp-server expects it. */
export function smtpRefusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  messageId: string | null;
  subject: string | null;
}

/**
 * A loopback SMTP server that can go away and come back on the same port
 * (an outage): `stop()` closes it, `start(port)` listens again with a fresh
 * server from `create()`.
 */
export abstract class RestartableSmtpServer {
  protected server: SMTPServer;
  port = 0;

  constructor() {
    this.server = this.create();
  }

  protected abstract create(): SMTPServer;

  async start(port = this.port): Promise<number> {
    this.port = await listenSmtp(this.server, port);
    return this.port;
  }

  /** Stops accepting connections (an SMTP outage); `start(samePort)` brings it back. */
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server = this.create();
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }
}

/**
 * A real SMTP server in the test process: accepts mail on loopback and keeps
 * it for assertions. `rejectWith` makes it answer every message with an SMTP
 * error until cleared (e.g. 451 for a temporary failure, 550 for permanent).
 */
export class TestSmtpServer extends RestartableSmtpServer {
  readonly messages: ReceivedMail[] = [];
  rejectWith: { code: number; message: string } | null = null;

  protected create(): SMTPServer {
    return loopbackSmtpServer({
      onMessage: (raw, session, answer) => {
        if (this.rejectWith) {
          answer(smtpRefusal(this.rejectWith.code, this.rejectWith.message));
          return;
        }
        this.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          messageId: /^Message-ID:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? null,
          subject: /^Subject:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? null,
        });
        answer();
      },
    });
  }

}
