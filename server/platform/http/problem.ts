import { z } from 'zod';
import { fieldDetail } from '../../domain/errors.js';

/**
 * HTTP problems thrown by routes and the HTTP layer (auth, scopes, plans, rights, limits). Rules,
 * services and repos throw the typed errors of server/domain/errors.ts instead. The one error
 * handler (errors.ts) renders both as application/problem+json; nothing else writes an error body.
 */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly headers: Record<string, string> = {},
    /** Extra members of the problem body (e.g. OAuth's `error`). */
    readonly extra: Record<string, string> = {},
  ) {
    super(detail);
  }
}

// `[field] message`: DESIGN §3 wants the detail to name the field; the rules' typed errors
// (server/domain/errors.ts) spell it, and so do these.
export { fieldDetail, fieldPath } from '../../domain/errors.js';

export class BadRequest extends ProblemError {
  constructor(detail: string) {
    super(400, 'Bad Request', detail);
  }
  static field(field: string, message: string) {
    return new BadRequest(fieldDetail(field, message));
  }
}

export class Unauthorized extends ProblemError {
  constructor(detail: string) {
    super(401, 'Unauthorized', detail, { 'www-authenticate': 'Bearer' });
  }
}

export class Forbidden extends ProblemError {
  constructor(detail: string) {
    super(403, 'Forbidden', detail);
  }
}

export class NotFound extends ProblemError {
  constructor(detail: string) {
    super(404, 'Not Found', detail);
  }
  static field(field: string, message: string) {
    return new NotFound(fieldDetail(field, message));
  }
}

/** 405 for an operation the target refuses (spec §7: imported reservations); `allow` lists what it takes. */
export class MethodNotAllowed extends ProblemError {
  constructor(detail: string, allow: string) {
    super(405, 'Method Not Allowed', detail, { allow });
  }
}

export class Conflict extends ProblemError {
  constructor(detail: string) {
    super(409, 'Conflict', detail);
  }
}

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
};

export const problemSchema = z
  .object({
    type: z.string().describe('a URI or about:blank'),
    title: z.string(),
    detail: z.string().describe('names the field: "[storeId] store 12 does not exist"'),
    status: z.number().int(),
  })
  .meta({ id: 'Problem' });

export type Problem = z.infer<typeof problemSchema>;

/** Response schemas every authenticated route shares, merged into each route's own. */
export const commonErrorResponses = {
  400: problemSchema,
  401: problemSchema,
  403: problemSchema,
} as const;
