/** What tests use to run operator verbs in-process, exactly as `npm run -s admin` parses and runs them. */
export { parseFlags, runCli, UsageError, type AdminContext, type Flags, type Noun, type Verb } from './cli';
export { nouns } from './nouns/index';

import type { Pool } from '@evidence-record/platform';
import { parseFlags } from './cli';
import { nouns } from './nouns/index';

/** An operator CLI run in this process on `pool` (tests): `admin('product', 'add', '--name', …)` → the verb's JSON object; a refusal throws. */
export function inProcessAdmin(pool: () => Pool, env: () => NodeJS.ProcessEnv): (...argv: string[]) => Promise<Record<string, unknown>> {
  return (...argv) => {
    const [noun, verb, ...rest] = argv;
    const run = nouns.find((n) => n.noun === noun)?.verbs[verb ?? '']?.run;
    if (!run) throw new Error(`no verb ${noun} ${verb}`);
    return run({ pool: pool(), flags: parseFlags(rest), env: env(), onClose: () => undefined });
  };
}
