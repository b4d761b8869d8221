// The server process's Node flags and environment: a copy of server/process-options.ts (which
// says why), since this shell compiles apart from the server; test/cli/start.test.ts
// keeps the two equal.
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--no-allocation-site-pretenuring'];
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };
