import { describe, expect, it } from 'vitest';
import { AnswerEnvelope, ContractViolation, DISCLAIMER, ErrorEnvelope, buildAnswer, buildRefusal, newRequestId, validationDetails, SearchRecordBody } from '../src/index';

const record = { record_version: 'rv_00000042', record_as_of: '2026-11-20', record_timestamp: '2026-11-19T08:00:00.000Z', methodology_version: 'method-2026.11' };
const base = () => ({ request_id: newRequestId(), capability: 'get_record_version', status: 'supported' as const, summary: 'The Record version.', confidence: { level: 'high' as const, basis: 'read from the Record' }, record });

describe('buildAnswer', () => {
  it('fills every required array and the record state', () => {
    const a = buildAnswer(base());
    for (const field of ['verified_facts', 'commercial_facts', 'calculations', 'research_context', 'regulatory_records', 'documented_cautions', 'limitations', 'source_references'] as const) {
      expect(a[field]).toEqual([]);
    }
    expect(a.record_version).toBe('rv_00000042');
    expect(a.record_timestamp).toBe('2026-11-19T08:00:00.000Z');
    expect(a.disclaimer).toBe(DISCLAIMER);
    expect(AnswerEnvelope.safeParse(a).success).toBe(true);
  });

  it('serialises request_id, capability and status first, whatever order they were given in (the gateway checks that head without parsing)', () => {
    const given = { summary: 'The Record version.', status: 'supported' as const, capability: 'get_record_version', confidence: base().confidence, record, request_id: newRequestId() };
    const json = JSON.stringify(buildAnswer(given));
    expect(json.startsWith(`{"request_id":"${given.request_id}","capability":"get_record_version","status":"supported"`)).toBe(true);
    expect(json.endsWith('}')).toBe(true);
  });

  it('rejects an answer missing a required field', () => {
    const { summary: _s, ...noSummary } = base();
    expect(() => buildAnswer(noSummary as never)).toThrow(ContractViolation);
    const { confidence: _c, ...noConfidence } = base();
    expect(() => buildAnswer(noConfidence as never)).toThrow(/confidence/);
    expect(() => buildAnswer({ ...base(), record: { ...record, record_version: undefined } } as never)).toThrow(/record_version/);
  });

  it('rejects a malformed request id, an unknown status and unknown fields', () => {
    expect(() => buildAnswer({ ...base(), request_id: 'req_123' })).toThrow(ContractViolation);
    expect(() => buildAnswer({ ...base(), status: 'fine' as never })).toThrow(ContractViolation);
    expect(() => buildAnswer({ ...base(), capture_id: 7 } as never)).toThrow(/capture_id|Unrecognized/);
  });

  it('refuses internal fields inside sub-records', () => {
    const fact = { kind: 'declared_ingredient', value: { declared_name: 'Caffeine', amount: 200, unit: 'mg' }, state_id: null, observed_at: '2026-10-01', source_url: null, storage_path: '/x' };
    expect(() => buildAnswer({ ...base(), verified_facts: [fact as never] })).toThrow(ContractViolation);
  });

  it('keeps a null amount as null, never zero', () => {
    const fact = { kind: 'declared_ingredient', value: { declared_name: 'L-Theanine', amount: null, unit: null }, state_id: null, observed_at: '2026-10-01', source_url: null };
    const a = buildAnswer({ ...base(), verified_facts: [fact] });
    expect(a.verified_facts[0]!.value.amount).toBeNull();
  });
});

describe('buildRefusal', () => {
  it('builds the documented error shape with the catalogue status', () => {
    const { status, body } = buildRefusal({ request_id: newRequestId(), capability: 'explain_signal', code: 'not_found', record_version: 'rv_00000001' });
    expect(status).toBe(404);
    expect(ErrorEnvelope.safeParse(body).success).toBe(true);
    expect(body.error.documentation).toBe('/api/v1/openapi.json#/x-error-codes/not_found');
    expect(body.limitations).toEqual([]);
  });

  it('names the offending field for invalid_request', () => {
    const parsed = SearchRecordBody.safeParse({ query: 'caffeine', export: true });
    expect(parsed.success).toBe(false);
    const details = validationDetails(parsed.error!.issues, 'body');
    expect(details.field).toBe('export');
  });
});
