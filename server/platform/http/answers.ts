import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commonErrorResponses, problemSchema } from './problem.js';

/** A route plugin's Fastify instance, with the zod type provider (what FastifyPluginAsyncZod hands in). */
export type ZodApp = FastifyInstance<any, any, any, any, ZodTypeProvider>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The response schemas of a route, in the document's order: its 200, the problems every
 * authenticated route may answer (400, 401, 403), and 404 where the path names a record.
 */
export const answers = {
  /** A write that names no record in its path: 200 or a common problem. */
  one: <T extends z.ZodType>(schema: T) => ({ 200: schema, ...commonErrorResponses }),
  /** A route whose path names a record: 404 when it does not exist. */
  found: <T extends z.ZodType>(schema: T) => ({ 200: schema, ...commonErrorResponses, 404: problemSchema }),
  /** A write to a record whose state may refuse it: 409 besides the 404. */
  conflicting: <T extends z.ZodType>(schema: T) => ({ 200: schema, ...commonErrorResponses, 404: problemSchema, 409: problemSchema }),
  /** A list (one page of it). */
  list: <T extends z.ZodType>(schema: T) => ({ 200: z.array(schema), ...commonErrorResponses }),
  /** A list under a record of the path (a sub-list): 404 when the record does not exist. */
  listOf: <T extends z.ZodType>(schema: T) => ({ 200: z.array(schema), ...commonErrorResponses, 404: problemSchema }),
  /** A delete (or a write that answers nothing): 204 without a body, 404 when the record does not exist. */
  noContent: () => ({ 204: z.null().describe('No Content'), ...commonErrorResponses, 404: problemSchema }),
};

/** Answers 204 No Content (DELETE and the writes the platform answers without a body). */
export const sendNoContent = (reply: FastifyReply) => reply.code(204).send(null);
