#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=4 --no-allocation-site-pretenuring
// The CLI entry (package.json "bin": dist/main.js) and the only place that listens (DESIGN §2).
// The #! line starts it with the server's environment and Node flags (server/process-options.ts
// says why; test/cli/start.test.ts keeps the two equal). `npm start` goes through
// server/start.ts, the desktop shell sets them itself.
import { runMain } from './server/cli/main.js';

await runMain();
