import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { call } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * Research context and regulatory records curated from the operator CLI
 * (issue 23, item 5; decision 1601), end to end: each verb run as a process
 * against the stack's database, then the public answer through the gateway
 * shows the change at a new record version; every refusal exits 1 with its
 * code and writes nothing. The entries are composed for this test (their
 * addresses sit on allow-listed domains but name no real page).
 */
let stack: RunningStack;
let key = '';

interface Run {
  code: number;
  json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, operatorCliArgs([...args, '--json']), { env: { ...stack.env, USER: 'Dana Curator' }, timeout: 60_000 }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, json: JSON.parse(stdout.trim().split('\n').pop() ?? '{}') });
    });
  });
}

async function ok(...args: string[]): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await cli(...args);
  expect(r.code, JSON.stringify(r.json)).toBe(0);
  return r.json;
}

const regulatory = (ingredient: string) => call(stack, key, 'POST', '/api/v1/regulatory/context', { ingredient_ids: [ingredient] });
const research = (ingredient: string) => call(stack, key, 'POST', '/api/v1/research/context', { ingredient_ids: [ingredient] });

async function written(): Promise<{ versions: number; entries: number; corrections: number }> {
  const c = new pg.Client({ connectionString: stack.db.url });
  await c.connect();
  try {
    const { rows } = await c.query(
      `SELECT (SELECT count(*)::int FROM record_versions) AS versions,
              (SELECT count(*)::int FROM research_context) + (SELECT count(*)::int FROM regulatory_records) AS entries,
              (SELECT count(*)::int FROM context_corrections) AS corrections`,
    );
    return rows[0];
  } finally {
    await c.end();
  }
}

const FDA = 'U.S. Food and Drug Administration';
const advisory = [
  '--ingredient', 'ing_huperzine_a', '--authority', FDA, '--kind', 'consumer_advisory', '--date', '2024-05',
  '--title', 'Composed test advisory about huperzine A in products sold as supplements',
  '--what', 'Public information the agency issued about huperzine A sold in products labeled as dietary supplements.',
  '--url', 'https://www.fda.gov/food/dietary-supplements/composed-test-advisory-huperzine-a',
];

beforeAll(async () => {
  stack = await startStack('context', { services: ['record', 'gateway'] });
  key = (await issueKey(stack, { plan: 'free', scopes: ['research:read', 'regulatory:read', 'framework:read'] })).key;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('regulatory records from the CLI', () => {
  let entry = '';

  it('add: a documented caution, the authority\'s own, in the answer at the change\'s record version', async () => {
    const before = await regulatory('ing_huperzine_a');
    expect(before.body!.documented_cautions).toEqual([]);
    const added = await ok('regulatory', 'add', ...advisory, '--caution');
    entry = added.entry_id;
    expect(entry).toMatch(/^reg_[0-9a-z]{12}$/);
    expect(added.entry).toMatchObject({ ingredient_id: 'ing_huperzine_a', caution: true, date: '2024-05', added_by: 'Dana Curator', corrections: [] });
    expect(added.record_version).not.toBe(before.body!.record_version);

    const after = (await regulatory('ing_huperzine_a')).body!;
    expect(after.record_version).toBe(added.record_version);
    expect(after.regulatory_records).toEqual([]);
    expect(after.documented_cautions).toEqual([
      expect.objectContaining({
        entry_id: entry,
        authority: FDA,
        record_kind: 'consumer_advisory',
        date: '2024-05',
        year: 2024,
        documented_caution: true,
        what_it_is: 'Public information the agency issued about huperzine A sold in products labeled as dietary supplements.',
        reference: expect.objectContaining({ url: 'https://www.fda.gov/food/dietary-supplements/composed-test-advisory-huperzine-a', date: '2024-05' }),
        corrections: [],
      }),
    ]);
    expect(after.documented_cautions[0].note).toMatch(/is U\.S\. Food and Drug Administration's own/);
    expect(after.documented_cautions[0].note).toMatch(/makes no finding of harm/);
  }, 60_000);

  it('correct: the answer keeps the text it replaced beside the corrected one, at a new record version', async () => {
    const was = (await regulatory('ing_huperzine_a')).body!.record_version;
    const corrected = await ok(
      'regulatory', 'correct', entry, '--note', 'The advisory is dated to the day it was posted.',
      '--date', '2024-05-14', '--what', 'Public information the agency posted about huperzine A in products labeled as dietary supplements.',
    );
    expect(corrected.changes).toEqual([
      { field: 'date', before: '2024-05', after: '2024-05-14' },
      {
        field: 'what_it_is',
        before: 'Public information the agency issued about huperzine A sold in products labeled as dietary supplements.',
        after: 'Public information the agency posted about huperzine A in products labeled as dietary supplements.',
      },
    ]);
    const now = (await regulatory('ing_huperzine_a')).body!;
    expect(now.record_version).toBe(corrected.record_version);
    expect(now.record_version).not.toBe(was);
    const caution = now.documented_cautions[0];
    expect(caution).toMatchObject({ date: '2024-05-14', what_it_is: 'Public information the agency posted about huperzine A in products labeled as dietary supplements.' });
    expect(caution.corrections).toEqual([{ recorded_on: new Date().toISOString().slice(0, 10), note: 'The advisory is dated to the day it was posted.', changes: corrected.changes }]);

    // No longer a caution: it moves to regulatory_records, still the same entry.
    await ok('regulatory', 'correct', entry, '--note', 'Recorded as a caution by mistake: it is information, not a caution.', '--caution', 'no');
    const moved = (await regulatory('ing_huperzine_a')).body!;
    expect(moved.documented_cautions).toEqual([]);
    expect(moved.regulatory_records.map((r: { entry_id: string }) => r.entry_id)).toEqual([entry]);
    expect(moved.regulatory_records[0].note).toMatch(/not an approval, a warning about any product in this answer, or a finding of harm/);
    expect(moved.regulatory_records[0].corrections.at(-1).changes).toEqual([{ field: 'documented_caution', before: true, after: false }]);
  }, 60_000);

  it('refuses, exit 1 with a code and nothing written: addresses off the allow-list, verdict wording, a caution not the authority\'s own, bad text, kinds and dates, unknown ids, duplicates, no change', async () => {
    const at = await written();
    const without = (name: string) => {
      const i = advisory.indexOf(name);
      return [...advisory.slice(0, i), ...advisory.slice(i + 2)];
    };
    const cases: Array<[string, string[]]> = [
      ['invalid_reference', [...without('--url'), '--url', 'http://www.fda.gov/food/composed']],
      ['invalid_reference', [...without('--url'), '--url', 'https://supplement-news.example.com/huperzine']],
      ['invalid_reference', [...without('--url'), '--url', 'https://user:secret@www.fda.gov/food/composed']],
      ['invalid_reference', [...without('--url'), '--url', 'https://www.fda.gov:8443/food/composed']],
      ['reads_as_verdict', [...without('--what'), '--what', 'The agency approved huperzine A for use in pre-workout products.']],
      ['reads_as_verdict', [...without('--what'), '--what', 'The agency says huperzine A is dangerous in any amount.']],
      ['caution_not_authoritys_own', [...without('--url'), '--url', 'https://pubmed.ncbi.nlm.nih.gov/00000000/', '--caution']],
      ['caution_not_authoritys_own', [...without('--authority'), '--authority', 'World Anti-Doping Agency', '--caution']],
      ['invalid_text', [...without('--title'), '--title', 'Short']],
      ['invalid_text', [...without('--what'), '--what', 'Two lines\nof what the filing is, which is one line.']],
      ['invalid_input', [...without('--kind'), '--kind', 'approval']],
      ['invalid_input', [...without('--date'), '--date', '2999-01-01']],
      ['invalid_input', [...without('--date'), '--date', '2024-02-30']],
      ['not_found', [...without('--ingredient'), '--ingredient', 'ing_not_in_the_record']],
    ];
    for (const [code, args] of cases) {
      const r = await cli('regulatory', 'add', ...args);
      expect({ args: args.join(' '), code: r.code, error: r.json.error }).toEqual({ args: args.join(' '), code: 1, error: code });
      expect(r.json.message).toEqual(expect.any(String));
    }
    // The same reference for the same ingredient twice.
    const twice = await cli('regulatory', 'add', ...without('--url'), '--url', 'https://www.fda.gov/food/dietary-supplements/composed-test-advisory-huperzine-a');
    expect(twice).toMatchObject({ code: 1, json: { error: 'duplicate' } });
    expect(await cli('regulatory', 'correct', entry, '--note', 'Nothing actually changes here.', '--date', '2024-05-14')).toMatchObject({ code: 1, json: { error: 'no_change' } });
    expect(await cli('regulatory', 'correct', 'reg_000000000000', '--note', 'There is no such entry at all.', '--date', '2024')).toMatchObject({ code: 1, json: { error: 'not_found' } });
    expect(await cli('regulatory', 'correct', entry, '--note', 'short', '--date', '2024')).toMatchObject({ code: 1, json: { error: 'invalid_text' } });
    // Usage mistakes exit 2.
    expect(await cli('regulatory', 'add', '--ingredient', 'ing_huperzine_a')).toMatchObject({ code: 1, json: { error: 'invalid_input' } });
    expect(await cli('research', 'correct', entry, '--note', 'A regulatory id given to research.')).toMatchObject({ code: 2, json: { error: 'usage' } });
    expect(await cli('research', 'add', ...advisory.map((a) => (a === 'consumer_advisory' ? 'review' : a)), '--caution')).toMatchObject({ code: 2, json: { error: 'usage' } });
    expect(await written()).toEqual(at);
  }, 240_000);

  it('retire: the entry stays in the Record, the answer names it retired with the date and why, and it cannot be corrected or retired again', async () => {
    const retired = await ok('regulatory', 'retire', entry, '--note', 'The agency took the advisory down; kept here as recorded.');
    expect(retired).toMatchObject({ entry_id: entry, retired_on: new Date().toISOString().slice(0, 10) });
    const answer = (await regulatory('ing_huperzine_a')).body!;
    expect(answer.record_version).toBe(retired.record_version);
    expect([...answer.regulatory_records, ...answer.documented_cautions]).toEqual([]);
    expect(answer.coverage.retired).toEqual([
      expect.objectContaining({ entry_id: entry, authority: FDA, date: '2024-05-14', retired_on: retired.retired_on, note: 'The agency took the advisory down; kept here as recorded.' }),
    ]);
    expect(answer.limitations.join('\n')).toMatch(/The Record retired "Composed test advisory about huperzine A in products sold as supplements" \(U\.S\. Food and Drug Administration, 2024-05-14\) on \d{4}-\d{2}-\d{2} and no longer serves it as current: The agency took the advisory down/);
    const listed = await ok('regulatory', 'list', '--ingredient', 'ing_huperzine_a');
    expect(listed.entries).toEqual([expect.objectContaining({ entry_id: entry, retired_on: retired.retired_on, corrections: expect.arrayContaining([expect.objectContaining({ kind: 'retirement' })]) })]);
    expect(await cli('regulatory', 'retire', entry, '--note', 'Retired a second time, which is refused.')).toMatchObject({ code: 1, json: { error: 'retired' } });
    expect(await cli('regulatory', 'correct', entry, '--note', 'Correcting a retired entry is refused.', '--date', '2024')).toMatchObject({ code: 1, json: { error: 'retired' } });
  }, 60_000);
});

describe('research context from the CLI', () => {
  it('adds an entry with its studied range, corrects its evidence, and retires it; each change a new record version the answer reads', async () => {
    const v0 = (await research('ing_huperzine_a')).body!;
    expect(v0.research_context).toEqual([]);
    const added = await ok(
      'research', 'add', '--ingredient', 'ing_huperzine_a', '--authority', 'NIH Office of Dietary Supplements', '--kind', 'fact_sheet', '--date', '2023',
      '--title', 'Composed test fact sheet on huperzine A', '--what', 'Summarises the small trials of huperzine A and the amounts they used.',
      '--url', 'https://ods.od.nih.gov/factsheets/ComposedTest-HealthProfessional/', '--range-low', '50', '--range-high', '200', '--range-unit', 'mcg/day', '--population', 'adults in small trials',
    );
    const v1 = (await research('ing_huperzine_a')).body!;
    expect(v1.record_version).toBe(added.record_version);
    expect(v1.research_context).toEqual([
      expect.objectContaining({
        entry_id: added.entry_id,
        authority: 'NIH Office of Dietary Supplements',
        date: '2023',
        studied_range: { low: 50, high: 200, unit: 'mcg/day', basis: 'per day' },
        population: 'adults in small trials',
        references: [{ title: 'Composed test fact sheet on huperzine A', year: 2023, kind: 'fact_sheet', url: 'https://ods.od.nih.gov/factsheets/ComposedTest-HealthProfessional/', date: '2023' }],
        corrections: [],
      }),
    ]);
    expect(v1.status).toBe('supported');

    const corrected = await ok('research', 'correct', added.entry_id, '--note', 'The range was read from the wrong table.', '--range-high', '400', '--what', 'Summarises the small trials of huperzine A and the amounts those trials used.');
    expect(corrected.changes.map((c: { field: string }) => c.field)).toEqual(['evidence', 'range_high']);
    const v2 = (await research('ing_huperzine_a')).body!;
    expect(v2.record_version).toBe(corrected.record_version);
    expect(v2.research_context[0]).toMatchObject({ studied_range: { high: 400 }, evidence: 'Summarises the small trials of huperzine A and the amounts those trials used.' });
    expect(v2.research_context[0].corrections[0].changes).toContainEqual({ field: 'range_high', before: 200, after: 400 });

    // A seed entry has no reference address: correcting it asks for one.
    const caffeine = (await research('ing_caffeine')).body!.research_context[0];
    expect(await cli('research', 'correct', caffeine.entry_id, '--note', 'Population re-read from the position stand.', '--population', 'adults')).toMatchObject({ code: 1, json: { error: 'invalid_input' } });

    const retired = await ok('research', 'retire', added.entry_id, '--note', 'Superseded by the current fact sheet.');
    const v3 = (await research('ing_huperzine_a')).body!;
    expect(v3.record_version).toBe(retired.record_version);
    expect(v3.research_context).toEqual([]);
    expect(v3.status).toBe('partial');
    expect(v3.coverage.retired).toEqual([expect.objectContaining({ entry_id: added.entry_id, title: 'Composed test fact sheet on huperzine A', note: 'Superseded by the current fact sheet.' })]);
    expect(v3.limitations).toContain('The Record holds no research context for Huperzine A.');
  }, 120_000);
});
