// The CSV export's second thread (issue 13 item 7). Turning rows into CSV (JSON.parse, the
// date-times, csv-stringify) is most of an export's work and runs in JavaScript, one thread at a
// time: alone, the worker took more than twice as long as `sqlite3 -csv | gzip`. The worker
// (worker.ts) reads the rows and hands batches to this thread while it has fewer than
// MAX_IN_FLIGHT, turning the others itself, so the split follows how much CPU each thread gets;
// the file's order is the worker's. Started by the worker from the compiled file beside it
// (dist/server/jobs/csv-export/).
import { isMainThread, MessageChannel, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { batchToCsv } from './csv-text.js';

interface ThreadInput {
  port: MessagePort;
  timeColumns: number[];
  zone: string;
}

/**
 * Batches given to the thread and not yet answered: one it works on and two waiting, so it does
 * not run dry while the worker turns a batch itself.
 */
const MAX_IN_FLIGHT = 3;

/**
 * The thread's V8 heap; every MB counts against the server's peak memory (200 MB in all).
 * csv-stringify leaves some 30 KB of garbage per row, so the young generation sets the pace: with
 * 8 MB the same rows took 10-30% longer, with 4 MB some 40%. What the thread keeps (its
 * modules and a batch) is a few MB, well below the old generation's cap.
 */
const LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 24 };

/** The worker's side: send(json) while `free`; each batch's CSV text comes back in order. */
export class CsvThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** The batches sent and not answered, oldest first (the thread answers in order). */
  private readonly waiting: { resolve: (csv: string) => void; reject: (error: Error) => void }[] = [];
  private failure: Error | null = null;

  constructor(timeColumns: number[], zone: string) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(new URL('./csv-thread.js', import.meta.url), {
      workerData: { csvThread: { port: port2, timeColumns, zone } satisfies ThreadInput },
      transferList: [port2],
      resourceLimits: LIMITS,
    });
    port1.on('message', (csv: string) => this.waiting.shift()?.resolve(csv));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the CSV thread exited with code ${code}`)));
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const w of this.waiting.splice(0)) w.reject(error);
  }

  /** True when the thread should be given another batch rather than the caller doing it. */
  get free(): boolean {
    return !this.failure && this.waiting.length < MAX_IN_FLIGHT;
  }

  /** The CSV text of `json` (a batch as batchToCsv takes it), once the thread has made it. */
  send(json: string): Promise<string> {
    if (this.failure) throw this.failure;
    const csv = new Promise<string>((resolve, reject) => this.waiting.push({ resolve, reject }));
    csv.catch(() => {}); // a failure is seen where the batch is awaited
    this.port.postMessage(json);
    return csv;
  }

  async close(): Promise<void> {
    this.fail(new Error('the CSV thread was closed'));
    this.port.close();
    await this.worker.terminate();
  }
}

if (!isMainThread && parentPort && (workerData as { csvThread?: ThreadInput } | null)?.csvThread) {
  const { port, timeColumns, zone } = (workerData as { csvThread: ThreadInput }).csvThread;
  const toCsv = batchToCsv(timeColumns, zone);
  port.on('message', (json: string) => port.postMessage(toCsv(json)));
}
