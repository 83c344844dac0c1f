// etcdbrctl as a program of its own (`node main.js server ...`): what tests run from the sources; the landscape runs
// the same command as `gardener-local etcdbrctl`.
import { runEtcdbrctl } from './command.js';

runEtcdbrctl(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`etcdbrctl: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
