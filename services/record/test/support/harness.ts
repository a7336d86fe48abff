import { expect } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, headers } from '@evidence-record/contract';
import { Metrics, createLogger, createPool, startService, type Pool, type RunningService } from '@evidence-record/platform';
import { createRecordApp } from '../../src/app';

export const PUBLIC_BASE_URL = 'https://er.test';

export interface Reply<T> {
  status: number;
  body: T;
  entities: string[];
  headers: Headers;
}

/** The record service running in-process on an ephemeral port, called over HTTP. */
export interface RecordHarness {
  pool: Pool;
  baseUrl: string;
  /** A 200 answer, validated against the contract's envelope. */
  answer: (method: string, path: string, body?: unknown) => Promise<Reply<AnswerEnvelope>>;
  /** A refusal, validated against the contract's error envelope. */
  refusal: (method: string, path: string, body?: unknown) => Promise<Reply<ErrorEnvelope>>;
  close: () => Promise<void>;
}

export async function startRecordService(databaseUrl: string): Promise<RecordHarness> {
  const pool = createPool(databaseUrl, { max: 8 });
  const log = createLogger('record-test', 'silent');
  const app = createRecordApp({ pool, publicBaseUrl: PUBLIC_BASE_URL, log, metrics: new Metrics('record') });
  const running: RunningService = await startService(app, { port: 0, log, graceMs: 1000, handleSignals: false });
  const baseUrl = `http://127.0.0.1:${running.port}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = (await res.json()) as unknown;
    const entities = (res.headers.get(headers.budgetEntities) ?? '').split(',').filter(Boolean);
    return { status: res.status, body: json, entities, headers: res.headers };
  };
  return {
    pool,
    baseUrl,
    answer: async (method, path, body) => {
      const r = await call(method, path, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const parsed = AnswerEnvelope.safeParse(r.body);
      expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
      expect(r.headers.get('cache-control')).toBe('private, no-store, max-age=0, must-revalidate');
      return { ...r, body: parsed.data! };
    },
    refusal: async (method, path, body) => {
      const r = await call(method, path, body);
      expect(r.status).toBeGreaterThanOrEqual(400);
      const parsed = ErrorEnvelope.safeParse(r.body);
      expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
      return { ...r, body: parsed.data! };
    },
    close: async () => {
      await running.close();
      await pool.end();
    },
  };
}

/** Internal fields that must never leave the service, whatever the answer. */
export function expectNoInternals(body: unknown, extra: string[] = []): void {
  const text = JSON.stringify(body);
  for (const needle of ['capture_id', 'content_sha256', 'storage_path', 'review_note', 'operator_note', 'reviewer', 'source_id', 'candidate_id', ...extra]) {
    expect(text, `answer leaks ${needle}`).not.toContain(needle);
  }
}
