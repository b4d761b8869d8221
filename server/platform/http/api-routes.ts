import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { Contract } from '../contracts/repo.js';
import type { ZodApp } from './answers.js';
import { authOf, type RequestAuth } from './auth.js';
import { sendPage, type Page } from './paging.js';
import type { Right } from './rights.js';
import type { Scope } from './scopes.js';

/**
 * The routes of the contract API (/{contract_id}/pos, /{contract_id}/waiter) as one feature
 * declares them: what every such route repeats — its tags, the scope (and rights) it needs, the
 * authenticated contract, paging's Link header — is said once here, so a route is its path, its
 * schemas and the call that answers it. Fastify registers each exactly as app.get/post/... would.
 */
type Schema = z.ZodType;

export interface ApiSchema<P extends Schema, Q extends Schema, B extends Schema> {
  summary: string;
  description?: string;
  headers?: Schema;
  params?: P;
  querystring?: Q;
  body?: B;
  /** The answers (answers.ts builds the usual maps). */
  response: Readonly<Record<number, Schema>>;
}

/** What a handler gets: the request's authentication and contract, and its parsed parts. */
export interface ApiRequest<P extends Schema, Q extends Schema, B extends Schema> {
  auth: RequestAuth;
  contract: Contract;
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** One page of `rows` (fetched with paging.ts's look-ahead row), with its Link header; each row presented when `present` is given. */
  page<Row, Out = Row>(rows: Row[], present?: (row: Row) => Out): Out[];
}

/** The scope a route needs, or the scope with the rights a user token needs besides RIGHTS_TABLE's. */
export type Access = Scope | { scope: Scope; rights?: readonly Right[]; problemWithoutStatus?: boolean };

type Handler<P extends Schema, Q extends Schema, B extends Schema> = (request: ApiRequest<P, Q, B>) => unknown;

type Register = <P extends Schema = z.ZodNever, Q extends Schema = z.ZodNever, B extends Schema = z.ZodNever>(
  url: string,
  access: Access,
  schema: ApiSchema<P, Q, B>,
  handler: Handler<P, Q, B>,
) => void;

/** Registers routes of one feature (one set of OpenAPI tags) on `app`. */
export function apiRoutes(app: ZodApp, tags: readonly string[]): Record<'get' | 'post' | 'put' | 'patch' | 'delete', Register> {
  const register =
    (method: HTTPMethods): Register =>
    (url, access, schema, handler) => {
      app.route({
        method,
        url,
        config: typeof access === 'string' ? { scope: access } : access,
        schema: { tags: [...tags], ...schema },
        handler: async (request, reply) => {
          const auth = authOf(request);
          return handler({
            auth,
            contract: auth.contract,
            params: request.params as never,
            query: request.query as never,
            body: request.body as never,
            request,
            reply,
            page: <Row, Out>(rows: Row[], present?: (row: Row) => Out) => {
              const shown = sendPage(request, reply, request.query as Page, rows);
              return present ? shown.map((row) => present(row)) : (shown as unknown as Out[]);
            },
          });
        },
      });
    };
  return { get: register('GET'), post: register('POST'), put: register('PUT'), patch: register('PATCH'), delete: register('DELETE') };
}
