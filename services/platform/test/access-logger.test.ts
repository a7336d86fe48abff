import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The access log's lines are held and written in batches (issue 25): none is
 * lost at exit, none waits longer than the flush interval on a quiet server,
 * and they come out whole and in order. Run in a child process, whose
 * standard output is the logger's destination.
 */
function run(script: string): Promise<{ lines: Array<Record<string, unknown>>; stamps: Array<{ at: number; text: string }>; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    const stamps: Array<{ at: number; text: string }> = [];
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      stamps.push({ at: Date.now(), text: chunk });
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ lines: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>), stamps, code }));
  });
}

const prelude = `import { createAccessLogger } from '@evidence-record/platform'; const log = createAccessLogger('gateway', 'info');`;

describe('the access logger', () => {
  it('writes every line held, in order, when the process exits at once', async () => {
    const { lines, code } = await run(`${prelude} for (let i = 0; i < 40; i++) log.info({ n: i, request_id: 'req_' + i }, 'request'); process.exit(3);`);
    expect(code).toBe(3);
    expect(lines.map((l) => l.n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(lines[0]).toMatchObject({ level: 30, service: 'gateway', msg: 'request', request_id: 'req_0' });
  });

  it('holds a few lines in one write, and lets them go within the flush interval on a quiet server', async () => {
    // Three lines, then two seconds of nothing: they must appear together, long before the process ends.
    const { lines, stamps } = await run(`${prelude} for (let i = 0; i < 3; i++) log.info({ n: i }, 'request'); setTimeout(() => { log.info({ n: 3 }, 'request'); }, 2000);`);
    expect(lines.map((l) => l.n)).toEqual([0, 1, 2, 3]);
    const firstChunk = stamps[0]!;
    expect(firstChunk.text.split('\n').filter(Boolean)).toHaveLength(3);
    // Timed from the lines' own timestamps, not from the spawn: a loaded machine's child start-up is not the
    // logger's delay. The interval is 200 ms; the fourth line is logged 2 s after the first.
    const loggedAt = (n: number) => Date.parse(String(lines[n]!.time));
    expect(firstChunk.at - loggedAt(0)).toBeLessThan(1000);
    expect(firstChunk.at).toBeLessThan(loggedAt(3));
  });

  it('writes a line only once the buffer fills or the interval passes, not per line', async () => {
    // 200 lines of ~300 bytes in one turn: about 15 writes of 4 KiB, not 200.
    const { lines, stamps } = await run(`${prelude} const pad = 'x'.repeat(200); for (let i = 0; i < 200; i++) log.info({ n: i, pad }, 'request'); setTimeout(() => undefined, 400);`);
    expect(lines).toHaveLength(200);
    expect(stamps.length).toBeLessThan(40);
  });
});
