import { readFile } from 'node:fs/promises';
import { importCaptures } from '@evidence-record/curation';
import { UsageError, required, type Noun } from '../cli';

/** Captures: what was read from sources, imported as history states and price observations. */
export const capture: Noun = {
  noun: 'capture',
  summary: 'import read sources as history states and price observations (curation)',
  verbs: {
    import: {
      usage: '--file bundle.json   (see docs/signals-and-ledger.md for the bundle shape)',
      run: async ({ pool, flags }) => {
        const file = required(flags, 'file');
        let bundle: unknown;
        try {
          bundle = JSON.parse(await readFile(file, 'utf8'));
        } catch (err) {
          throw new UsageError(`cannot read ${file} as JSON: ${err instanceof Error ? err.message : String(err)}`);
        }
        return { ...(await importCaptures(pool, bundle)) };
      },
    },
  },
};
