import { describe, expect, it } from 'vitest';
import { AnswerEnvelope, METHODOLOGY_VERSION, answerStatuses, buildAnswer, capabilities, headers, newRequestId } from '@evidence-record/contract';
import { inspectAnswer } from '../src/http/answer';

/**
 * The gateway checks a 200 by its head, without parsing it
 * (docs/decisions/0701-gateway-upstream-checks.md): that only works while
 * the envelope schema, and so every answer `buildAnswer` makes, opens with
 * `request_id`, `capability` and `status`. These tests fail the moment the
 * schema's order changes, before any answer is withheld in production.
 */
const record = { record_version: 'rv_00000001', record_as_of: '2026-01-01', record_timestamp: '2026-01-01T00:00:00.000Z', methodology_version: METHODOLOGY_VERSION };
const capability = capabilities.get_record_version;

const upstream200 = (body: string) => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8', [headers.budgetEntities]: '' }, body: Buffer.from(body) });

describe('the answer check and the envelope schema agree on the head', () => {
  it('the envelope schema opens with request_id, capability and status', () => {
    expect(Object.keys(AnswerEnvelope.shape).slice(0, 3)).toEqual(['request_id', 'capability', 'status']);
  });

  it('accepts what buildAnswer makes, for every answer status a 200 carries', () => {
    for (const status of answerStatuses.filter((s) => s !== 'refused')) {
      const requestId = newRequestId();
      const body = JSON.stringify(buildAnswer({ request_id: requestId, capability: capability.name, status, summary: 'Test.', confidence: { level: 'high', basis: 'test' }, coverage: {}, record }));
      expect(inspectAnswer(upstream200(body), requestId, capability), status).toEqual({ ok: true, errorCode: null, entities: [], answerStatus: status });
    }
  });

  it('withholds the same answer with its members in another order', () => {
    const requestId = newRequestId();
    const built = buildAnswer({ request_id: requestId, capability: capability.name, status: 'supported', summary: 'Test.', confidence: { level: 'high', basis: 'test' }, coverage: {}, record });
    const { status, ...rest } = built;
    expect(inspectAnswer(upstream200(JSON.stringify({ status, ...rest })), requestId, capability)).toMatchObject({ ok: false });
  });
});
