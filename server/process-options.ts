// How the server process is started, wherever it runs: the bin's #! line (the top-level main.ts),
// `npm start` (server/start.ts) and the desktop shell (app/electron, whose copy a test keeps
// equal to this one). Both settings hold the server's resident memory down (issue 13 item 7).

/**
 * A young generation of 2 x 4 MB: V8's default lets startup grow it to 32 MB, kept for the life
 * of the server, and requests gain nothing from more (same req/s and p99, 20-40 MB less resident).
 *
 * No allocation-site pretenuring: under steady requests V8 took some short-lived objects for
 * long-lived ones and allocated them straight in the old generation, where they piled up until
 * the next full collection: `GET /categories/{id}` at 13,500 req/s grew the server from 120 MB
 * to 160-213 MB within a minute. Without it: flat at 120-128 MB, same req/s and p99.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--no-allocation-site-pretenuring'];

/**
 * glibc's malloc raises its mmap threshold to the size of any large block freed, after which
 * blocks that size come from the thread's heap and stay resident when freed. Each staff login's
 * scrypt (16 MB, on one of libuv's four threads) thereby left 16 MB per thread: 64 MB more after
 * a few logins. A fixed threshold returns such blocks to the system when freed. Other C
 * libraries (Windows, macOS, musl) ignore the variable.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The server's environment from a parent's: SERVER_ENV unless the parent sets those itself. */
export function withServerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...SERVER_ENV, ...env };
}
