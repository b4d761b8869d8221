import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { formatDateTime } from '../../domain/time.js';
import { authOf } from '../../platform/http/auth.js';
import { commonErrorResponses, Conflict, Forbidden, NotFound, ProblemError, problemSchema } from '../../platform/http/problem.js';
import { assertReceiver } from '../../platform/http/receivers.js';
import { checkDownload, DOWNLOAD_PREFIX, exportDirOf, publicBaseUrl } from '../../jobs/csv-export/downloads.js';
import { ExportRunner, exportRunnerOf } from '../../jobs/csv-export/runner.js';
import { bodyHash } from '../transactions/request-keys.js';
import { EXPORT_ENTITY, TransactionExportRepo, type ExportRow } from './repo.js';
import { downloadParams, downloadQuery, exportAccepted, exportBody, exportHeaders, exportParams, exportProgress, type ExportProgress } from './schema.js';

const tags = ['transactions'];

/**
 * The runner of these deps, made (and started) by the first caller. The base of download URLs is
 * asked of the listening server when a file is done: the port is known only then.
 */
function runnerFor(deps: AppDeps, app: FastifyInstance): ExportRunner {
  return exportRunnerOf(deps, () => {
    const runner = new ExportRunner(deps, () => publicBaseUrl(deps.config.publicUrl, app.server.address()), app.log);
    runner.start();
    return runner;
  });
}

function presentProgress(row: ExportRow, zone: string, runner: ExportRunner, now: number): ExportProgress {
  const time = (ms: number | null) => (ms === null ? null : formatDateTime(ms, zone));
  const downloadable = row.status === 'succeeded' && row.file_deleted_at === null && row.expires_at !== null && row.expires_at >= now;
  const running = row.status === 'running' ? runner.live(row.export_id) : undefined;
  return {
    requestCode: row.request_code,
    status: row.status,
    message: row.message,
    rowsWritten: running?.rows ?? row.rows_written,
    total: running?.total ?? row.total_rows,
    callbackUrl: row.callback_url,
    state: row.state,
    fileUrl: downloadable ? runner.signedUrl(row) : null,
    fileName: row.file_name,
    fileBytes: row.file_bytes,
    requestDateTime: time(row.requested_at)!,
    startDateTime: time(row.started_at),
    finishDateTime: time(row.finished_at),
    expireDateTime: time(row.expires_at),
  };
}

/**
 * Spec 4.11 (POST /transactions/details/out_file_async) and its progress (GET …/{requestCode}),
 * under /{contract_id}/pos. The export itself runs in jobs/csv-export (a worker thread).
 */
export default function transactionExportRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const repo = new TransactionExportRepo(deps.db);

  return async (app) => {
    const runner = runnerFor(deps, app);
    app.addHook('onClose', async () => runner.close());

    app.post(
      '/transactions/details/out_file_async',
      {
        config: { scope: 'pos.transactions:write' },
        schema: {
          tags,
          summary: 'Request a CSV of transaction details, made asynchronously (spec 4.11); the result is announced to callbackUrl (6.3)',
          description:
            'Answers at once; the gzip CSV is made in the background, one export at a time. A Request-Code header is the inquiry code: ' +
            'the same code and body answer the same export again (header Idempotent-Replayed: true) and never start a second one; ' +
            'the same code with another body is a 409. Without it the server mints one. Progress: GET …/out_file_async/{requestCode}.',
          headers: exportHeaders,
          body: exportBody,
          response: { 200: exportAccepted, ...commonErrorResponses, 409: problemSchema },
        },
      },
      async (request, reply) => {
        const { contract, rights } = authOf(request);
        // Registering a sale needs no right, but an export reads every sale: a staff login needs
        // sales_view, as for reading them (GET /transactions).
        if (rights !== null && !rights.includes('sales_view')) throw new Forbidden('[right] the user token lacks the right sales_view');
        const code = request.headers['request-code'];
        const body = request.body;
        // The notice (6.3) goes out from here: at head office only to public addresses (platform/http/receivers.ts).
        if (body.callbackUrl) await assertReceiver(deps.config, body.callbackUrl, 'callbackUrl');
        const hash = bodyHash(body);
        const { row, replayed } = deps.writer.write(() => {
          if (code !== undefined) {
            const found = repo.find(contract.contractId, code);
            if (found) {
              if (found.body_hash !== hash) throw new Conflict(`[Request-Code] ${code} was already used for an export with another body`);
              return { row: found, replayed: true };
            }
          }
          const exportId = deps.ids.next('transaction_exports');
          let requestCode = code ?? exportId;
          // A minted code that a client already chose as its own is passed over.
          while (code === undefined && repo.find(contract.contractId, requestCode)) requestCode = deps.ids.next('transaction_exports');
          repo.insert({
            contract_id: contract.contractId,
            request_code: requestCode,
            export_id: exportId,
            body: JSON.stringify(body),
            body_hash: hash,
            callback_url: body.callbackUrl ?? null,
            state: body.state ?? '',
            requested_at: deps.clock.now().getTime(),
          });
          deps.writer.changed({ contractId: contract.contractId, entity: EXPORT_ENTITY, id: requestCode, op: 'insert' });
          return { row: repo.find(contract.contractId, requestCode)!, replayed: false };
        });
        if (replayed) reply.header('idempotent-replayed', 'true');
        else runner.kick();
        return { callbackUrl: row.callback_url, state: row.state, requestCode: row.request_code };
      },
    );

    app.get(
      '/transactions/details/out_file_async/:request_code',
      {
        config: { scope: 'pos.transactions:read' },
        schema: {
          tags,
          summary: 'Progress of a transaction detail CSV export: status, rows written of the total, and the download URL once done',
          params: exportParams,
          response: { 200: exportProgress, ...commonErrorResponses, 404: problemSchema },
        },
      },
      async (request) => {
        const { contract } = authOf(request);
        const row = repo.find(contract.contractId, request.params.request_code);
        if (!row) throw NotFound.field('request_code', `no export has the inquiry code ${request.params.request_code}`);
        return presentProgress(row, contract.timeZone, runner, deps.clock.now().getTime());
      },
    );
  };
}

/**
 * A stored file's bytes, a chunk (256 KiB) read at a time as the response takes them: one short
 * statement each on the server's connection, with the event loop free between them.
 */
async function* storedChunks(repo: TransactionExportRepo, exportId: string, owner: string, first: string): AsyncGenerator<Buffer> {
  yield Buffer.from(first, 'base64');
  for (let seq = 1; ; seq++) {
    const data = repo.chunk(exportId, owner, seq);
    if (data === undefined) return;
    yield Buffer.from(data, 'base64');
  }
}

/**
 * GET /downloads/{file}: the file of a finished export. No token: the URL's signature (HMAC over
 * path and expiry) is the credential, so the notice's receiver can fetch it. 403 when the
 * signature does not match, 410 once it expired (1 hour after the export finished).
 */
export function transactionExportDownloadRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const repo = new TransactionExportRepo(deps.db);
  return async (app) => {
    app.get(
      `${DOWNLOAD_PREFIX}/:file_name`,
      {
        schema: {
          tags,
          summary: 'Download the gzip CSV of a finished export (the signed file_url of the 6.3 notice)',
          params: downloadParams,
          querystring: downloadQuery,
          response: {
            200: z.any().describe('the gzip compressed CSV (Content-Type application/gzip, Content-Disposition attachment)'),
            403: problemSchema,
            404: problemSchema,
            410: problemSchema,
          },
        },
      },
      async (request, reply) => {
        const { file_name: fileName } = request.params;
        const now = deps.clock.now().getTime();
        const verdict = checkDownload(repo.signingKey(), fileName, request.query.expires, request.query.signature, now);
        if (verdict === 'bad-signature') throw new Forbidden('[signature] the download URL is not valid: its signature does not match');
        if (verdict === 'expired') {
          const at = new Date(Number(request.query.expires) * 1000).toISOString();
          throw new ProblemError(410, 'Gone', `[expires] the download URL expired at ${at}; request the export again`);
        }
        const row = repo.byFileName(fileName);
        const gone = () => NotFound.field('file_name', `the export file ${fileName} is no longer on this server`);
        if (!row || row.file_deleted_at !== null) throw gone();
        const path = join(exportDirOf(deps.db), fileName);
        let body: Readable;
        let size: number;
        try {
          size = statSync(path).size;
          body = createReadStream(path);
        } catch {
          // Not in this process's data dir: another central process made it, and stored it in the
          // database (PostgreSQL; jobs/csv-export/worker.ts). None there either: gone.
          const owner = row.owner;
          const first = owner === null ? undefined : repo.chunk(row.export_id, owner, 0);
          if (first === undefined || owner === null || row.file_bytes === null) throw gone();
          size = row.file_bytes;
          body = Readable.from(storedChunks(repo, row.export_id, owner, first));
        }
        return reply
          .header('content-type', 'application/gzip')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('content-length', String(size))
          .header('cache-control', 'private, no-store')
          .send(body);
      },
    );
  };
}
