import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { isBusyError } from '../../db/write.js';
import { isDatabaseUnavailable, PgQueryError } from '../../db/pg/errors.js';
import { ConflictError, DomainError, ForbiddenError, InvalidInput, NotFoundError, OperationRefused, type Operation } from '../../domain/errors.js';
import { fieldPath, ProblemError, STATUS_TITLES, type Problem } from './problem.js';

// Say "is required" for a missing key instead of zod's "expected string, received undefined".
z.config({
  customError: (issue) => ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined ? 'is required' : undefined),
});

interface ValidationItem {
  instancePath: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

const CONTEXT_NAMES: Record<string, string> = { querystring: 'query', params: 'path', body: 'body', headers: 'header' };

/** At most this many entries in a detail: 10,000 unknown keys must not make a 292 KiB answer. */
export const MAX_DETAIL_ENTRIES = 20;

/** "[categoryName] is required; [limit] too big" — one entry per bad field, the first 20 and a count of the rest. */
export function validationDetail(items: ValidationItem[], context: string | undefined): string {
  const entries = items.flatMap((item) => {
    const field = fieldPath(item.instancePath.replace(/^\//, '').replaceAll('/', '.'));
    if (item.keyword === 'unrecognized_keys' && Array.isArray(item.params?.keys)) {
      return (item.params.keys as string[]).map((k) => `[${field ? `${field}.${k}` : k}] is not a known field`);
    }
    const name = field || CONTEXT_NAMES[context ?? ''] || 'body';
    // Fastify hands a missing body to the validator as null.
    const missingBody = !field && item.keyword === 'invalid_type' && item.message?.endsWith('received null');
    return [`[${name}] ${missingBody ? 'is required' : (item.message ?? 'is invalid')}`];
  });
  const shown = entries.slice(0, MAX_DETAIL_ENTRIES).join('; ');
  const more = entries.length - MAX_DETAIL_ENTRIES;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

const titleOf = (status: number) => STATUS_TITLES[status] ?? STATUS_CODES[status] ?? 'Error';

/** Seconds a client is told to wait when another program holds the database's lock. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** Headers a 4xx error of Fastify or a plugin carries for its answer (e.g. Content-Range on a 416). */
function errorHeaders(error: { headers?: unknown }): Record<string, string> {
  if (!error.headers || typeof error.headers !== 'object') return {};
  return Object.fromEntries(
    Object.entries(error.headers as Record<string, unknown>)
      .filter(([name, value]) => (typeof value === 'string' || typeof value === 'number') && !/^content-(type|length)$/i.test(name))
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
}

/** Text a client sent, quoted in a detail, cut so a 16 KiB URL or header does not come back whole. */
const cut = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Fastify's and plugins' messages, said the way the rest of the API says things. */
function frameworkDetail(fe: FastifyError): string {
  const path = /^'(.*)' is /s.exec(fe.message)?.[1] ?? '';
  if (fe.code === 'FST_ERR_BAD_URL') return `[path] ${cut(path)} is not valid percent-encoded UTF-8`;
  if (fe.code === 'FST_ERR_MAX_PARAM_LENGTH') return `[path] a path segment of ${cut(path)} is longer than 100 characters`;
  return cut(fe.message, 500);
}

/** The method of each operation a record may still take (the Allow header of a 405). */
const METHOD_OF: Record<Operation, string> = { read: 'GET', update: 'PATCH', delete: 'DELETE' };

/** A rule's refusal as an HTTP problem: its status by kind, its message as the detail. */
function domainProblem(error: DomainError): { status: number; headers: Record<string, string> } | undefined {
  if (error instanceof InvalidInput) return { status: 400, headers: {} };
  if (error instanceof ForbiddenError) return { status: 403, headers: {} };
  if (error instanceof NotFoundError) return { status: 404, headers: {} };
  if (error instanceof ConflictError) return { status: 409, headers: {} };
  if (error instanceof OperationRefused) return { status: 405, headers: { allow: error.allowed.map((o) => METHOD_OF[o]).join(', ') } };
  return undefined;
}

export function toProblem(error: FastifyError | ProblemError | Error): { problem: Problem; headers: Record<string, string>; extra: Record<string, string> } {
  const refusal = error instanceof DomainError ? domainProblem(error) : undefined;
  if (refusal) {
    return {
      problem: { type: 'about:blank', title: titleOf(refusal.status), detail: error.message, status: refusal.status },
      headers: refusal.headers,
      extra: {},
    };
  }
  if (error instanceof ProblemError) {
    return {
      problem: { type: 'about:blank', title: error.title, detail: error.message, status: error.status },
      headers: error.headers,
      extra: error.extra,
    };
  }
  const fe = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fe)) {
    return {
      problem: { type: 'about:blank', title: 'Bad Request', status: 400, detail: validationDetail(fe.validation as ValidationItem[], fe.validationContext) },
      headers: {},
      extra: {},
    };
  }
  if (isBusyError(error)) {
    return {
      problem: { type: 'about:blank', title: titleOf(503), status: 503, detail: busyDetail(error) },
      headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
      extra: {},
    };
  }
  // Head office's PostgreSQL is gone (stopped, restarting, unreachable) or did not answer in
  // time: nothing the request asked for is wrong, and the client reconnects by itself on a later
  // request. A write cut off before its COMMIT was rolled back; one cut off at its COMMIT may have
  // committed, and the resend is made safe by idempotency keys and the sync high-water mark.
  if (isDatabaseUnavailable(error)) {
    return {
      problem: { type: 'about:blank', title: titleOf(503), status: 503, detail: 'the database is unavailable; retry shortly' },
      headers: { 'retry-after': String(error.retryAfterSeconds) },
      extra: {},
    };
  }
  // Every client error of Fastify or a plugin (a 403 `..` path, a 412 If-Match, a 416 range
  // of the docs' static files, a 413 body) is the client's to fix: pass it on with its status.
  const status = fe.statusCode ?? (fe as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      problem: { type: 'about:blank', title: titleOf(status), status, detail: frameworkDetail(fe) },
      headers: errorHeaders(fe as { headers?: unknown }),
      extra: {},
    };
  }
  return {
    problem: { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'the server could not complete the request; it has been logged' },
    headers: {},
    extra: {},
  };
}

/**
 * Problem bodies are written as ready JSON so the route's response serializer never
 * touches them. Routes whose spec allows only type/title/detail mark `config.problemWithoutStatus`.
 */
export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}, extra: Record<string, string> = {}) {
  const bare = reply.request.routeOptions?.config?.problemWithoutStatus === true;
  const body = bare
    ? { type: problem.type, title: problem.title, detail: problem.detail }
    : { ...problem, ...extra };
  return reply.code(problem.status).headers(headers).type('application/problem+json').send(JSON.stringify(body));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { problem, headers, extra } = toProblem(error);
    logProblem(request, problem, error);
    await drainRefusedBody(request.raw, reply);
    return sendProblem(reply, problem, headers, extra);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(reply, noRoute(request)));
}

/**
 * SQLite's file lock is held by another program; PostgreSQL's conflicts (a deadlock's victim, a
 * serialization failure, a lock wait ended: platform/http/busy.ts ran the request again until its
 * limit) come from other requests of head office.
 */
function busyDetail(error: Error): string {
  return error.cause instanceof PgQueryError
    ? 'the request kept meeting concurrent writes to the same records; retry shortly'
    : 'the database is locked by another program (a command line tool or a backup); retry shortly';
}

function logProblem(request: FastifyRequest, problem: Problem, error: Error): void {
  if (isDatabaseUnavailable(error)) request.log.warn({ status: 503, reason: error.reason, commitUnknown: error.commitUnknown, err: error.message }, 'database unavailable: answered 503');
  else if (problem.status === 503) request.log.warn({ status: 503, detail: problem.detail }, 'database busy: answered 503');
  else if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status: problem.status, detail: problem.detail }, 'request refused');
}

/** The most of a refused body read (and dropped) before the connection is closed anyway. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 5000;

/**
 * Fastify closes the connection after refusing a body it has not read to its end (a 413, a
 * parse error). Closing a socket with unread input makes the kernel reset it, and a client that
 * is still sending (one that writes the whole request before reading) then sees a reset, never
 * the answer. So the rest of the body is read and dropped first — up to DRAIN_MAX_BYTES or
 * DRAIN_MAX_MS, after which the client gets its answer (and maybe a reset) anyway.
 */
function drainRefusedBody(raw: IncomingMessage, reply: FastifyReply): Promise<void> | undefined {
  if (raw.complete || raw.destroyed || reply.getHeader('connection') !== 'close') return undefined;
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    raw.on('data', onData).on('end', done).on('error', done).on('close', done);
    raw.resume();
  });
}

/**
 * Fastify options that make its router's own errors problem+json too: a bad %-escape (400),
 * a path segment over 100 characters (414), and the errors Node's HTTP parser raises before
 * there is a request (431 headers or URL too long, 408, 400), which Node would answer itself.
 */
export const problemServerOptions = {
  frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const { problem, headers } = toProblem(error);
    logProblem(request, problem, error);
    void sendProblem(reply, problem, headers);
  },
  clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const detail =
      status === 431
        ? `the request line and headers are larger than ${Math.round(maxHeaderSize / 1024)} KiB (a URL that long names nothing here)`
        : status === 408
          ? 'the request did not arrive in time'
          : 'the request is not valid HTTP/1.1';
    const body = JSON.stringify({ type: 'about:blank', title: titleOf(status), status, detail });
    this.log.info({ status, code: error.code }, 'request refused by the HTTP parser');
    // As Node does: answer only when no response of this connection has begun.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && (!inFlight || !inFlight.headersSent)) {
      socket.write(
        `HTTP/1.1 ${status} ${titleOf(status)}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  },
} satisfies Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>;

export const noRoute = (request: FastifyRequest): Problem => ({
  type: 'about:blank',
  title: 'Not Found',
  status: 404,
  detail: `no route ${request.method} ${request.url.split('?')[0]}`,
});


declare module 'fastify' {
  interface FastifyContextConfig {
    /** Spec 4.4: the staff update's error body has type, title, detail only. */
    problemWithoutStatus?: boolean;
  }
}
