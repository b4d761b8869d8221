import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
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

/** "[categoryName] is required; [limit] too big" — one entry per bad field. */
export function validationDetail(items: ValidationItem[], context: string | undefined): string {
  return items
    .flatMap((item) => {
      const field = fieldPath(item.instancePath.replace(/^\//, '').replaceAll('/', '.'));
      if (item.keyword === 'unrecognized_keys' && Array.isArray(item.params?.keys)) {
        return (item.params.keys as string[]).map((k) => `[${field ? `${field}.${k}` : k}] is not a known field`);
      }
      const name = field || CONTEXT_NAMES[context ?? ''] || 'body';
      // Fastify hands a missing body to the validator as null.
      const missingBody = !field && item.keyword === 'invalid_type' && item.message?.endsWith('received null');
      return [`[${name}] ${missingBody ? 'is required' : (item.message ?? 'is invalid')}`];
    })
    .join('; ');
}

/** Statuses of Fastify's own request errors that we pass on with their message. */
const PASS_THROUGH = new Set([400, 404, 405, 406, 408, 411, 413, 414, 415, 431]);

export function toProblem(error: FastifyError | ProblemError | Error): { problem: Problem; headers: Record<string, string>; extra: Record<string, string> } {
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
  const status = fe.statusCode ?? 500;
  if (PASS_THROUGH.has(status)) {
    return {
      problem: { type: 'about:blank', title: STATUS_TITLES[status] ?? 'Bad Request', status, detail: fe.message },
      headers: {},
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
  const bare = reply.request.routeOptions.config?.problemWithoutStatus === true;
  const body = bare
    ? { type: problem.type, title: problem.title, detail: problem.detail }
    : { ...problem, ...extra };
  return reply.code(problem.status).headers(headers).type('application/problem+json').send(JSON.stringify(body));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { problem, headers, extra } = toProblem(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ status: problem.status, detail: problem.detail }, 'request refused');
    return sendProblem(reply, problem, headers, extra);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(reply, noRoute(request)));
}

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
