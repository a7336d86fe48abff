import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './launcher';
import { waitFor } from './wait';

/**
 * A PostgreSQL primary with a streaming standby (and, beside them, PgBouncer), started on loopback in
 * folders of their own, never touching the machine's own PostgreSQL: what the read-replica tests, the
 * multi-node stack (`npm run up -- --multi-node`: primary 5441, standby 5442) and the node-kill
 * resilience tests run against (decision 2320).
 *
 * The servers run as the `postgres` user when this process is root (initdb refuses root), from the
 * newest `/usr/lib/postgresql/<n>/bin` (or `PG_BIN`). Both trust loopback connections as `postgres`.
 */

const run = promisify(execFile);

export interface PostgresPairOptions {
  /** Ports (default: two free ones from the test port reservation). */
  primaryPort?: number;
  standbyPort?: number;
  /** The folder holding both data directories and their logs (default: a new one under the temp folder, removed by stop()). */
  dir?: string;
  /** Whether commits wait for the disk (default off: a test or local stack, not a production store). */
  fsync?: boolean;
  /** More server settings for the standby (`name=value`), e.g. `max_standby_streaming_delay=200ms`. */
  standbySettings?: string[];
  /** max_connections of both (default 100); a whole test run on the pair (vitest.multi-node.config.ts) needs more. */
  maxConnections?: number;
}

export interface PostgresPair {
  primaryPort: number;
  standbyPort: number;
  dir: string;
  /** A connection URL to one database of the primary or the standby. */
  primaryUrl: (database?: string) => string;
  standbyUrl: (database?: string) => string;
  /** Stops applying WAL on the standby (it still receives it); resolves once replay is paused. */
  pauseReplay: () => Promise<void>;
  resumeReplay: () => Promise<void>;
  /** Resolves once the standby has replayed everything the primary had written when it was called. */
  waitForReplay: (timeoutMs?: number) => Promise<void>;
  /** SIGSTOPs every process of the standby: it accepts TCP connections and answers nothing, like a hung node. */
  freezeStandby: () => Promise<void>;
  thawStandby: () => Promise<void>;
  /** `immediate` (default): the standby vanishes as a killed node does; `fast`: a clean shutdown. */
  stopStandby: (mode?: 'immediate' | 'fast') => Promise<void>;
  startStandby: () => Promise<void>;
  stopPrimary: (mode?: 'immediate' | 'fast') => Promise<void>;
  startPrimary: () => Promise<void>;
  /** Stops both (thawing a frozen standby first) and removes the folder unless it was given. */
  stop: () => Promise<void>;
}

/** The newest PostgreSQL server binaries of this machine. */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql, or set PG_BIN)');
  return join(root, newest, 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a server tool as `postgres` when this process is root (the servers refuse to run as root). */
async function asServerUser(command: string, args: string[], timeoutMs = 60_000): Promise<string> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  try {
    const { stdout } = await run(file, argv, { timeout: timeoutMs });
    return stdout;
  } catch (err) {
    const e = err as Error & { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${e.message}\n${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}

/** A folder the server user owns (and nobody else reads: initdb and the postmaster require 0700 data directories). */
function serverFolder(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
  if (asRoot) {
    const { uid, gid } = serverUser();
    chownSync(path, uid, gid);
  }
  return path;
}

function serverUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run the servers as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

class Server {
  constructor(
    readonly bin: string,
    readonly data: string,
    readonly port: number,
    readonly socketDir: string,
    readonly settings: string[],
  ) {}

  async start(): Promise<void> {
    const options = [`-p ${this.port}`, `-c listen_addresses=127.0.0.1`, `-c unix_socket_directories=${this.socketDir}`, ...this.settings.map((s) => `-c ${s}`)].join(' ');
    await asServerUser(join(this.bin, 'pg_ctl'), ['-D', this.data, '-l', `${this.data}.log`, '-o', options, '-w', '-t', '60', 'start']);
  }

  async stop(mode: 'immediate' | 'fast'): Promise<void> {
    if (!existsSync(join(this.data, 'postmaster.pid'))) return;
    await asServerUser(join(this.bin, 'pg_ctl'), ['-D', this.data, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  /** The postmaster's pid and its children's (the backends, the WAL receiver and the startup process). */
  async pids(): Promise<number[]> {
    const postmaster = Number(readFileSync(join(this.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)]).catch(() => ({ stdout: '' }));
    return [postmaster, ...stdout.split('\n').map((l) => Number(l.trim())).filter((n) => n > 0)];
  }

  log(): string {
    try {
      return readFileSync(`${this.data}.log`, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '';
    }
  }
}

/**
 * Starts a primary (wal_level replica) and a hot standby cloned from it with `pg_basebackup -R`
 * (streaming replication, asynchronous, as a managed read replica is), and waits until the standby
 * streams.
 */
export async function startPostgresPrimaryWithStandby(opts: PostgresPairOptions = {}): Promise<PostgresPair> {
  const bin = postgresBin();
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'er-pg-pair-'));
  serverFolder(dir);
  if (asRoot) {
    // A folder under one only root may enter (`.run` is 0700, decision 1300) is out of the server user's reach.
    await asServerUser('test', ['-w', dir]).catch(() => {
      throw new Error(`the postgres user cannot write ${dir}: every folder above it must be searchable by postgres (mode o+x), or use a folder under ${tmpdir()}`);
    });
  }
  const primaryPort = opts.primaryPort ?? (await freePort());
  const standbyPort = opts.standbyPort ?? (await freePort());
  const common = [`fsync=${opts.fsync ? 'on' : 'off'}`, `max_connections=${opts.maxConnections ?? 100}`, 'shared_buffers=32MB'];
  const primary = new Server(bin, join(dir, 'primary'), primaryPort, dir, [...common, 'wal_level=replica', 'max_wal_senders=5', 'wal_keep_size=256MB']);
  // The primary's address on the command line: a standby started again from its folder follows the primary's port of this start.
  const standby = new Server(bin, join(dir, 'standby'), standbyPort, dir, [
    ...common,
    'hot_standby=on',
    'wal_receiver_status_interval=1s',
    `primary_conninfo='host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby'`,
    ...(opts.standbySettings ?? []),
  ]);
  const url = (port: number) => (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const primaryUrl = url(primaryPort);
  const standbyUrl = url(standbyPort);

  try {
    if (!existsSync(join(primary.data, 'PG_VERSION'))) {
      serverFolder(primary.data);
      await asServerUser(join(bin, 'initdb'), ['-D', primary.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    }
    await primary.start();
    if (!existsSync(join(standby.data, 'PG_VERSION'))) {
      serverFolder(standby.data);
      await asServerUser(join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby.data, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    }
    await standby.start();
    await waitFor('the standby to stream from the primary', async () => {
      const rows = await query<{ n: number }>(primaryUrl(), `SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'`);
      return rows[0]!.n > 0;
    }, 30_000, 100);
  } catch (err) {
    const logs = `primary log:\n${primary.log()}\nstandby log:\n${standby.log()}`;
    await standby.stop('immediate').catch(() => undefined);
    await primary.stop('immediate').catch(() => undefined);
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n${logs}`);
  }

  let frozen: number[] = [];
  const signal = async (pids: number[], sig: 'STOP' | 'CONT') => {
    for (const pid of pids) {
      try {
        process.kill(pid, `SIG${sig}`);
      } catch {
        // gone already
      }
    }
  };

  const pair: PostgresPair = {
    primaryPort,
    standbyPort,
    dir,
    primaryUrl,
    standbyUrl,
    pauseReplay: async () => {
      await query(standbyUrl(), 'SELECT pg_wal_replay_pause()');
      await waitFor('replay to pause', async () => (await query<{ s: string }>(standbyUrl(), 'SELECT pg_get_wal_replay_pause_state() AS s'))[0]!.s === 'paused', 10_000, 20);
    },
    resumeReplay: async () => {
      await query(standbyUrl(), 'SELECT pg_wal_replay_resume()');
    },
    waitForReplay: async (timeoutMs = 20_000) => {
      const [{ lsn }] = (await query<{ lsn: string }>(primaryUrl(), 'SELECT pg_current_wal_lsn()::text AS lsn')) as [{ lsn: string }];
      await waitFor('the standby to replay the primary', async () => {
        const rows = await query<{ caught_up: boolean }>(standbyUrl(), `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS caught_up`);
        return rows[0]!.caught_up;
      }, timeoutMs, 20);
    },
    freezeStandby: async () => {
      frozen = await standby.pids();
      await signal(frozen, 'STOP');
    },
    thawStandby: async () => {
      await signal(frozen, 'CONT');
      frozen = [];
    },
    stopStandby: async (mode = 'immediate') => {
      await pair.thawStandby();
      await standby.stop(mode);
    },
    startStandby: () => standby.start(),
    stopPrimary: (mode = 'immediate') => primary.stop(mode),
    startPrimary: () => primary.start(),
    stop: async () => {
      await pair.thawStandby();
      await standby.stop('immediate').catch(() => undefined);
      await primary.stop('fast').catch(() => primary.stop('immediate'));
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return pair;
}

/**
 * Stops a pair started earlier with a `dir` of its own (by another process: `npm run down` after
 * `npm run up -- --multi-node`), standby first. Keeps the folder; does nothing for a server not running.
 */
export async function stopPostgresPair(dir: string, mode: 'immediate' | 'fast' = 'fast'): Promise<void> {
  const bin = postgresBin();
  for (const name of ['standby', 'primary']) {
    const data = join(dir, name);
    if (existsSync(join(data, 'postmaster.pid'))) await asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  }
}

export interface PgBouncerOptions {
  /** Where it forwards every database (host 127.0.0.1). */
  targetPort: number;
  port?: number;
  poolMode?: 'transaction' | 'session' | 'statement';
  /** Server connections per database and user (default 4). */
  poolSize?: number;
  /** PgBouncer 1.21+: protocol-level prepared statements tracked across server connections (0: off, the default before 1.21). */
  maxPreparedStatements?: number;
}

export interface PgBouncer {
  port: number;
  version: string;
  url: (database?: string) => string;
  stop: () => Promise<void>;
}

/** The installed PgBouncer's version ("1.18.0"), or null when it is not installed (scripts/infra.sh ensure_vitest_packages installs it). */
export async function pgbouncerVersion(): Promise<string | null> {
  try {
    const { stdout } = await run(pgbouncerPath(), ['--version']);
    return /PgBouncer (\d+\.\d+\.\d+)/i.exec(stdout)?.[1] ?? null;
  } catch {
    return null;
  }
}

function pgbouncerPath(): string {
  return existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer';
}

/**
 * PgBouncer on loopback in front of a server started above, with trust authentication for `postgres`
 * and no ignored startup parameters (so a client that sends one is refused, as by a default install).
 */
export async function startPgBouncer(opts: PgBouncerOptions): Promise<PgBouncer> {
  const version = await pgbouncerVersion();
  if (!version) throw new Error('pgbouncer is not installed: bash -c "source scripts/infra.sh && ensure_vitest_packages" (npm test does)');
  const port = opts.port ?? (await freePort());
  const dir = serverFolder(mkdtempSync(join(tmpdir(), 'er-pgbouncer-')));
  const ini = join(dir, 'pgbouncer.ini');
  const lines = [
    '[databases]',
    `* = host=127.0.0.1 port=${opts.targetPort}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir = ${dir}`,
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    `pool_mode = ${opts.poolMode ?? 'transaction'}`,
    `default_pool_size = ${opts.poolSize ?? 4}`,
    'max_client_conn = 200',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    ...(opts.maxPreparedStatements !== undefined ? [`max_prepared_statements = ${opts.maxPreparedStatements}`] : []),
  ];
  writeFileSync(ini, `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  if (asRoot) {
    const { uid, gid } = serverUser();
    for (const f of [ini, join(dir, 'userlist.txt')]) chownSync(f, uid, gid);
  }
  await asServerUser(pgbouncerPath(), ['-d', ini]);
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  await waitFor(`pgbouncer on :${port}`, async () => {
    try {
      await query(url(), 'SELECT 1');
      return true;
    } catch {
      return false;
    }
  }, 10_000, 50);
  return {
    port,
    version,
    url,
    stop: async () => {
      const pidFile = join(dir, 'pgbouncer.pid');
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, 'utf8').trim());
        try {
          process.kill(pid, 'SIGINT');
        } catch {
          // gone already
        }
        await waitFor('pgbouncer to exit', () => !existsSync(pidFile) || !alive(pid), 10_000, 50).catch(() => undefined);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
