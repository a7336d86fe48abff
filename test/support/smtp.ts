import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  messageId: string | null;
  subject: string | null;
}

/**
 * A real SMTP server in the test process: accepts mail on loopback and keeps
 * it for assertions. `rejectWith` makes it answer every message with an SMTP
 * error until cleared (e.g. 451 for a temporary failure, 550 for permanent).
 */
export class TestSmtpServer {
  readonly messages: ReceivedMail[] = [];
  rejectWith: { code: number; message: string } | null = null;
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = this.create();
  }

  private create(): SMTPServer {
    return new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.rejectWith) {
            const err = Object.assign(new Error(this.rejectWith.message), { responseCode: this.rejectWith.code });
            callback(err);
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            messageId: /^Message-ID:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? null,
            subject: /^Subject:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? null,
          });
          callback();
        });
      },
    });
  }

  async start(port = 0): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = ((this.server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
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
