import { runCli } from './cli';
import { nouns } from './nouns/index';

process.exitCode = await runCli(nouns, process.argv.slice(2));
