/** A bad command line: the CLI prints the one-line reason and exits 2. */
export class UsageError extends Error {}

/** A failure the operator can act on: the CLI prints the one-line reason and exits 1. */
export class CommandError extends Error {}
