// The two settings a typo cannot be allowed to break: a port the server could not listen on
// (the app would show "port in use" at once, and the terminals lose it) and a backup folder that
// cannot be written (every daily backup would fail). Both are tried, not guessed.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { isAbsolute } from 'node:path';
import { InvalidInput } from '../../domain/errors.js';

/** Listens on host:port for a moment; throws a 400 naming the port when it cannot. */
export function assertPortUsable(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') return reject(InvalidInput.field('port', `port ${port} is in use by another program`));
      if (error.code === 'EACCES') return reject(InvalidInput.field('port', `port ${port} needs administrator rights on this PC; choose one from 1024 up`));
      reject(InvalidInput.field('port', `cannot listen on port ${port}: ${error.message}`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** An absolute folder this process can write to, created when missing. */
export function assertWritableFolder(folder: string): void {
  if (!isAbsolute(folder)) throw InvalidInput.field('backupFolder', `must be an absolute folder path, not ${folder}`);
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw InvalidInput.field('backupFolder', `cannot write to ${folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
