import { currentRecordVersion, type Logger, type Pool } from '@evidence-record/platform';

/**
 * The gateway's own refusals carry a record_version like every answer. It is
 * read in the background once a second, never per request.
 */
export class RecordVersionWatch {
  private version = 'rv_00000000';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly log: Logger,
    private readonly intervalMs = 1000,
  ) {}

  get current(): string {
    return this.version;
  }

  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    try {
      this.version = await currentRecordVersion(this.pool);
    } catch (err) {
      this.log.warn({ err: String(err) }, 'record version not read; refusals keep the last known one');
    }
  }
}
