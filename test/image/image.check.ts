import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '@evidence-record/contract';
import { serviceNames } from '@evidence-record/registry';
import { emptyDatabase } from '@evidence-record/test-support/db';
import { imageCommand, type ImageRoot } from '@evidence-record/test-support/launcher';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';

/**
 * Every service of the registry from the built image (scripts/image-check.sh
 * builds it, unpacks its files and mounts them read-only with a tmpfs on
 * /tmp), as the image's user, against this machine's Postgres, Redis and NATS;
 * then the end-to-end smoke through the image's gateway.
 */
const exec = promisify(execFile);

function imageFromEnv(): ImageRoot {
  const root = process.env.ER_IMAGE_ROOT;
  const user = process.env.ER_IMAGE_USER;
  if (!root || !user) throw new Error('run through scripts/image-check.sh (ER_IMAGE_ROOT and ER_IMAGE_USER unset)');
  const env = Object.fromEntries((JSON.parse(process.env.ER_IMAGE_ENV ?? '[]') as string[]).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  return { root, user, env };
}

const image = imageFromEnv();
let stack: RunningStack;

/** Mount options of the filesystem a process sees at `path` (the last mount over it wins). */
function mountOptions(pid: number, path: string): string[] {
  const lines = readFileSync(`/proc/${pid}/mountinfo`, 'utf8').trim().split('\n');
  const found = lines.map((l) => l.split(' ')).filter((f) => f[4] === path);
  expect(found.length, `a mount at ${path} for pid ${pid}`).toBeGreaterThan(0);
  return found[found.length - 1]![5]!.split(',');
}

beforeAll(async () => {
  stack = await startStack('image', { image });
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the built image', () => {
  it('runs every service of the registry as the non-root image user, ready on /readyz', () => {
    const [uid, gid] = image.user.split(':').map(Number);
    expect(uid).toBeGreaterThan(0);
    expect([...stack.processes.keys()].sort()).toEqual([...serviceNames].sort());
    for (const [name, child] of stack.processes) {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      expect(/^Uid:\s+(\d+)\s+(\d+)/m.exec(status)?.slice(1).map(Number), `${name} uid`).toEqual([uid, uid]);
      expect(/^Gid:\s+(\d+)\s+(\d+)/m.exec(status)?.slice(1).map(Number), `${name} gid`).toEqual([gid, gid]);
      expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).toContain(`dist/${name}.mjs`);
    }
  });

  it('gives them a read-only root filesystem with only /tmp writable', async () => {
    for (const [name, child] of stack.processes) {
      expect(mountOptions(child.pid!, '/'), `${name}: /`).toContain('ro');
      expect(mountOptions(child.pid!, '/tmp'), `${name}: /tmp`).toContain('rw');
    }
    const write = async (path: string) => {
      const cmd = imageCommand(image, ['-e', `require('fs').writeFileSync(${JSON.stringify(path)}, 'x')`]);
      return exec(cmd.file, cmd.args, { env: { PATH: image.env.PATH ?? '/usr/bin:/bin' } }).then(
        () => 'written',
        (err: { stderr?: string }) => (/EROFS|EACCES/.exec(err.stderr ?? '')?.[0] ?? `failed: ${err.stderr}`),
      );
    };
    expect(await write('/app/dist/written-at-run-time')).toBe('EROFS');
    expect(await write('/etc/written-at-run-time')).toBe('EROFS');
    expect(await write('/tmp/written-at-run-time')).toBe('written');
  });

  it('migrates an empty database with its own migrate bundle', async () => {
    const db = await emptyDatabase();
    try {
      const cmd = imageCommand(image, ['dist/migrate.mjs']);
      await exec(cmd.file, cmd.args, { env: { ...stack.env, DATABASE_URL: db.url } });
    } finally {
      await db.drop();
    }
  });

  it('answers the end-to-end smoke through its gateway: health, a keyed capability call, MCP tools/list', async () => {
    const health = await fetch(`${stack.baseUrl}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    // The key is issued by the image's own operator CLI (stack.admin runs dist/admin.mjs inside it).
    const { key } = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'image check' });
    const version = await fetch(`${stack.baseUrl}/api/v1/record/version`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await version.json()) as Record<string, unknown>;
    expect(version.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ capability: expect.any(String), request_id: expect.any(String) });
    expect(version.headers.get('ratelimit-remaining')).toBeTruthy();

    const resolved = await fetch(`${stack.baseUrl}/api/v1/products/resolve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'Pre-Workout' }),
    });
    expect(resolved.status).toBe(200);

    const listed = await fetch(`${stack.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(listed.status).toBe(200);
    const tools = ((await listed.json()) as { result?: { tools?: Array<{ name: string }> } }).result?.tools ?? [];
    expect(tools.length).toBeGreaterThan(10);
  });
});
