import type { SMTPServer } from 'smtp-server';
import { listenSmtp, loopbackSmtpServer, smtpRefusal } from '@evidence-record/test-support/smtp';

/**
 * A real SMTP server for tests, on an ephemeral port. It keeps every message
 * it accepted and can be told to answer 4xx (temporary) or 5xx (permanent),
 * to accept slowly, or be stopped and started again on the same port.
 */
export interface ReceivedMail {
  to: string[];
  raw: string;
  messageId: string | null;
  alertId: string | null;
  subject: string | null;
  listUnsubscribe: string | null;
  listUnsubscribePost: string | null;
  text: string;
  html: string;
}

export type SinkMode = 'accept' | 'tempfail' | 'reject';

export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  mode: SinkMode = 'accept';
  delayMs = 0;
  /** Messages refused while not accepting. */
  refusals = 0;
  private server: SMTPServer | null = null;
  port = 0;

  async start(port = this.port): Promise<number> {
    const server = loopbackSmtpServer({
      onMessage: (raw, session, answer) => {
        const done = () => {
          if (this.mode !== 'accept') {
            this.refusals++;
            answer(this.mode === 'tempfail' ? smtpRefusal(451, 'Mailbox busy, try later') : smtpRefusal(550, 'Mailbox does not exist'));
            return;
          }
          this.received.push(parseMail(raw, session.envelope.rcptTo.map((r) => r.address)));
          answer(null);
        };
        if (this.delayMs > 0) setTimeout(done, this.delayMs);
        else done();
      },
    });
    this.port = await listenSmtp(server, port);
    server.on('error', () => undefined);
    this.server = server;
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  byAlert(alertId: string): ReceivedMail[] {
    return this.received.filter((m) => m.alertId === alertId);
  }
}

function header(head: string, name: string): string | null {
  const m = new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return m ? m[1]!.replace(/\r?\n[ \t]+/g, ' ').trim() : null;
}

function decodePart(body: string, encoding: string | null): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** RFC 2047 encoded words (nodemailer encodes a subject with non-ASCII characters), joined as one string. */
function decodeWords(value: string | null): string | null {
  if (value === null) return null;
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

/** Just enough MIME to read the text and HTML parts nodemailer writes. */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  let text = '';
  let html = '';
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(header(head, 'Content-Type') ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${head}\r\n\r\n${body}`];
  for (const part of parts) {
    const i = part.indexOf('\r\n\r\n');
    const ph = part.slice(0, i);
    const pb = decodePart(part.slice(i + 4).replace(/\r\n$/, ''), header(ph, 'Content-Transfer-Encoding'));
    const type = header(ph, 'Content-Type') ?? '';
    if (type.startsWith('text/plain')) text = pb;
    else if (type.startsWith('text/html')) html = pb;
  }
  return {
    to,
    raw,
    messageId: header(head, 'Message-ID'),
    alertId: header(head, 'X-Evidence-Record-Alert'),
    subject: decodeWords(header(head, 'Subject')),
    listUnsubscribe: header(head, 'List-Unsubscribe'),
    listUnsubscribePost: header(head, 'List-Unsubscribe-Post'),
    text,
    html,
  };
}
