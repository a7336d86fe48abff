import { cliVariables, masked, resolveConfig } from '../config';
import type { Noun } from '../cli';

/** The configuration the CLI acts with: the stack's own (see scripts/admin/config.ts). */
export const config: Noun = {
  noun: 'config',
  summary: 'the configuration the CLI uses (the stack file `npm run up` writes, then the environment)',
  verbs: {
    show: {
      usage: '   (passwords in URLs masked)',
      run: async () => {
        const { env, file } = resolveConfig(process.env);
        return { file, ...Object.fromEntries(cliVariables.map((n) => [n, masked(env[n] ?? '')])) };
      },
    },
  },
};
