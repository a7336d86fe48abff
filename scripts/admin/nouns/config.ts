import { printableValue } from '@evidence-record/platform';
import { cliSettings, resolveConfig } from '../config';
import type { Noun } from '../cli';

/** The configuration the CLI acts with: the stack's own (see scripts/admin/config.ts). */
export const config: Noun = {
  noun: 'config',
  summary: 'the configuration the CLI uses (the stack file `npm run up` writes, then the environment)',
  verbs: {
    show: {
      usage: '   (every setting the CLI reads and every variable of the stack file; secrets and passwords in URLs masked)',
      run: async () => {
        const { env, file, fromFile } = resolveConfig(process.env);
        const names = [...new Set([...cliSettings, ...Object.keys(fromFile)])].sort();
        // What the CLI reads comes from its resolved settings (environment, file, defaults); the rest as the file has it.
        const value = (name: string) => ((cliSettings as string[]).includes(name) ? env[name] : fromFile[name]);
        return { file, ...Object.fromEntries(names.map((n) => [n, value(n) === undefined ? null : printableValue(n, value(n)!)])) };
      },
    },
  },
};
