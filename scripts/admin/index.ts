/** What tests use to run operator verbs in-process, exactly as `npm run -s admin` parses and runs them. */
export { parseFlags, runCli, UsageError, type AdminContext, type Flags, type Noun, type Verb } from './cli';
export { nouns } from './nouns/index';
