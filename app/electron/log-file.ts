// logs/server.log: the server's output and the shell's own notes, for support. A store PC runs
// for years, so the file rotates by size (server.log → server.log.1 → … → server.log.<keep>),
// and every file operation is asynchronous (fs.promises, run on libuv's thread pool) so a slow
// disk never holds the main process, which draws the window and answers the tray.
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface RotatingLogOptions {
  /** A file is rotated before it would grow past this. */
  maxBytes?: number;
  /** Old files kept beside the current one. */
  keep?: number;
  /** Text waiting for the disk beyond this is dropped (and the loss noted), never held without bound. */
  maxPendingBytes?: number;
}

export const LOG_MAX_BYTES = 5 * 1024 * 1024;
export const LOG_KEEP = 3;

export class RotatingLog {
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly maxPending: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private dropped = 0;
  private handle: FileHandle | null = null;
  private size = -1;
  private draining: Promise<void> | null = null;
  private closed = false;

  constructor(
    readonly file: string,
    options: RotatingLogOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? LOG_MAX_BYTES;
    this.keep = Math.max(1, options.keep ?? LOG_KEEP);
    this.maxPending = options.maxPendingBytes ?? 4 * 1024 * 1024;
  }

  /** Queues one line (a newline is added); returns at once. */
  write(line: string): void {
    if (this.closed) return;
    const text = `${line}\n`;
    const bytes = Buffer.byteLength(text);
    if (this.pendingBytes + bytes > this.maxPending) {
      this.dropped += 1;
      return;
    }
    this.pending.push(text);
    this.pendingBytes += bytes;
    this.kick();
  }

  /** Resolves when everything queued so far is on disk. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Writes what is queued and closes the file; later writes are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
  }

  private kick(): void {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      // A line queued between the last write and this moment.
      if (this.pending.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const lines = this.pending;
      this.pending = [];
      this.pendingBytes = 0;
      if (this.dropped > 0) {
        lines.unshift(`${logLine('shell', `${this.dropped} log line(s) dropped: the disk did not keep up`)}\n`);
        this.dropped = 0;
      }
      try {
        await this.append(lines);
      } catch {
        // A full or missing disk must not stop the app; the log is only for support.
        await this.handle?.close().catch(() => undefined);
        this.handle = null;
        this.size = -1;
      }
    }
  }

  /** Appends the lines in as few writes as the size limit allows, rotating between them. */
  private async append(lines: string[]): Promise<void> {
    if (this.size < 0) {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      this.size = await stat(this.file).then(
        (s) => s.size,
        () => 0,
      );
    }
    let chunk = '';
    let chunkBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (this.size + chunkBytes + bytes > this.maxBytes && this.size + chunkBytes > 0) {
        await this.writeChunk(chunk, chunkBytes);
        chunk = '';
        chunkBytes = 0;
        await this.rotate();
      }
      chunk += line;
      chunkBytes += bytes;
    }
    await this.writeChunk(chunk, chunkBytes);
  }

  private async writeChunk(text: string, bytes: number): Promise<void> {
    if (bytes === 0) return;
    this.handle ??= await open(this.file, 'a', 0o600);
    await this.handle.appendFile(text);
    this.size += bytes;
  }

  private async rotate(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
    await rm(`${this.file}.${this.keep}`, { force: true });
    for (let n = this.keep - 1; n >= 1; n -= 1) await rename(`${this.file}.${n}`, `${this.file}.${n + 1}`).catch(() => undefined);
    await rename(this.file, `${this.file}.1`).catch(() => undefined);
    this.size = 0;
  }
}

/** A log line: time, source, text. */
export function logLine(source: 'stdout' | 'stderr' | 'shell', text: string, at = new Date()): string {
  return `${at.toISOString()} ${source} ${text}`;
}

/** The last lines of a log file (at most the last 64 KB of it), for the error page; [] when unreadable. */
export async function readLogTail(file: string, maxLines = 60, maxBytes = 64 * 1024): Promise<string[]> {
  let handle: FileHandle | null = null;
  try {
    handle = await open(file, 'r');
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    // A cut first line is half a line.
    if (length < size) lines.shift();
    return lines.filter((l) => l !== '').slice(-maxLines);
  } catch {
    return [];
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
