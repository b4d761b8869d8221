#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=4 --no-allocation-site-pretenuring
// The CLI entry (package.json "bin": dist/main.js), the only place that listens, and the
// composition root (DESIGN §2): the one file that knows both server/ and sync/, it hands sync's
// module (sync/module.ts) to the server's CLI, which passes it on to buildApp and the scheduler.
// server/ imports no sync/. The #! line starts it with the server's environment and Node flags
// (server/process-options.ts says why; test/cli/start.test.ts keeps the two equal). `npm start`
// goes through server/start.ts, the desktop shell sets them itself.
import { runMain } from './server/cli/main.js';
import { syncModule } from './sync/module.js';

await runMain([syncModule]);
