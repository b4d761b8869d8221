import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { entityNamed } from '../../db/entities.js';
import { answers, sendNoContent, type ZodApp } from './answers.js';
import { apiRoutes, type Access } from './api-routes.js';
import type { RequestAuth } from './auth.js';
import { idParams, type FieldSelection } from './list-schemas.js';
import type { Right } from './rights.js';
import type { Scope } from './scopes.js';

/**
 * The routes of a plain master (DESIGN §3, issue 22), generated from its entity registry entry
 * (server/db/entities.ts) and a short description, so a plain master is a registry entry, its
 * repo (db/master-repo.ts: its own rules) and its schemas (its own fields):
 *
 *   POST   /<table>          create   body → 200 the record
 *   GET    /<table>          list     query → 200 one page (Link header), paging.ts
 *   GET    /<table>/:<key>   get      → 200 the record, 404 naming <key>
 *   PATCH  /<table>/:<key>   update   body → 200 the record
 *   DELETE /<table>/:<key>   delete   → 204
 *
 * The path is the registry table's name and the parameter its key column (`path` and `params`
 * say otherwise where the platform does: /tables, /products/reserve_item_labels/:no); the
 * default summaries name the record by the registry too. Only the operations the description
 * gives (a body, a query, `delete`) are served, in the order above (or `only`'s).
 */
export type MasterOp = 'create' | 'list' | 'get' | 'update' | 'delete';

/** A scope family that has both a read and a write scope (pos.stores, pos.products, ...). */
type ScopeArea = { [S in Scope]: S extends `${infer A}:write` ? (`${A}:read` extends Scope ? A : never) : never }[Scope];

type Query = Record<string, unknown> & { fields?: readonly string[] };

/** The master repo's methods the routes call (any may be left out with its route). */
export interface MasterRepoApi<Row, C extends z.ZodType, U extends z.ZodType, L extends z.ZodType> {
  create?(contractId: string, body: z.output<C>): Row;
  list?(contractId: string, query: z.output<L>, page: z.output<L>): Row[];
  get(contractId: string, id: string): Row;
  update?(contractId: string, id: string, body: z.output<U>): Row;
  delete?(contractId: string, id: string): void;
}

export interface MasterRoutesSpec<Row, C extends z.ZodType, U extends z.ZodType, L extends z.ZodType, G extends z.ZodType> {
  tags: string[];
  /** `pos.stores` reads with pos.stores:read and writes with pos.stores:write; or each named. */
  scope: ScopeArea | { read: Scope; write: Scope };
  /** Rights a user token needs besides RIGHTS_TABLE's (rights.ts), on reads and on writes. */
  rights?: { read: readonly Right[]; write: readonly Right[] };
  /** The URL of the collection when it is not `/<table>`. */
  path?: string;
  /** How the default summaries name a record and the list, when not as the registry does. */
  noun?: readonly [one: string, many: string];
  /** The path parameters naming one record when they are not `{ <key>: id() }`. */
  params?: z.ZodObject;
  /** The answer of create, get and update. */
  record: z.ZodType;
  /** A row as answered; `query` is the request's on list and get (undefined on writes). */
  present(row: Row, zone: string, query?: never): unknown;
  /** Spec 4.3 `fields` on list and get: their answers are any subset of the record. */
  fields?: FieldSelection;
  create?: C;
  update?: U;
  list?: L;
  /** The query of get, when it takes one (`fields`, `with_*`). */
  get?: G;
  delete?: true;
  /** Summaries that say more than the defaults (`Register a <noun>`, `List <nouns>`, ...). */
  summaries?: Partial<Record<MasterOp, string>>;
  /** A rule of the contract checked before every create and update (a linkage the writes need). */
  beforeWrite?(auth: RequestAuth): void;
  /** Calls that are not the repo's plain ones (an actor, the contract, another reader); the repo's by default. */
  run?: {
    create?(auth: RequestAuth, body: z.output<C>): Row;
    get?(auth: RequestAuth, id: string): Row;
    update?(auth: RequestAuth, id: string, body: z.output<U>): Row;
  };
  /** The operations to register here, in this order (a feature that puts its own routes between them). */
  only?: readonly MasterOp[];
}

const ORDER: readonly MasterOp[] = ['create', 'list', 'get', 'update', 'delete'];

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

/** Registers a master's routes on `app` (see the file comment). */
export function registerMasterRoutes<Row, C extends z.ZodType = z.ZodNever, U extends z.ZodType = z.ZodNever, L extends z.ZodType = z.ZodNever, G extends z.ZodType = z.ZodNever>(
  app: ZodApp,
  entity: string,
  repo: NoInfer<MasterRepoApi<Row, C, U, L>>,
  spec: MasterRoutesSpec<Row, C, U, L, G>,
): void {
  const def = entityNamed(entity);
  if (!def || def.kind !== 'master' || def.keys.length !== 1) throw new Error(`${entity} is not a single-key master of the entity registry`);
  const path = spec.path ?? `/${def.table}`;
  const params = spec.params ?? idParams(def.keys[0]!);
  const key = Object.keys(params.shape)[0]!;
  const one = `${path}/:${key}`;
  const { tags, fields } = spec;
  const [read, write] = typeof spec.scope === 'string' ? [`${spec.scope}:read` as Scope, `${spec.scope}:write` as Scope] : [spec.scope.read, spec.scope.write];
  const reading: Access = spec.rights ? { scope: read, rights: spec.rights.read } : { scope: read };
  const writing: Access = spec.rights ? { scope: write, rights: spec.rights.write } : { scope: write };
  const [noun, nouns] = spec.noun ?? [def.name.replaceAll('_', ' '), def.table.replaceAll('_', ' ')];
  const summaries: Record<MasterOp, string> = {
    create: `Register ${article(noun)}`,
    list: `List ${nouns}`,
    get: `Get ${article(noun)}`,
    update: `Update ${article(noun)} (only the keys sent change)`,
    delete: `Delete ${article(noun)}`,
    ...spec.summaries,
  };
  const run = spec.run ?? {};
  const present = spec.present as (row: Row, zone: string, query?: Query) => Record<string, unknown>;
  /** The record as answered to a read: limited to `fields` where the master takes them. */
  const shown = (row: Row, zone: string, query: Query | undefined) => {
    const value = present(row, zone, query);
    return fields ? fields.select(value, query?.fields) : value;
  };
  const readAnswer = fields ? fields.subset : spec.record;
  const getQuery = spec.get ?? (fields ? fields.getQuery : undefined);
  const idOf = (params: unknown) => String((params as Record<string, string>)[key]);
  const route = apiRoutes(app, tags);

  const routes: Record<MasterOp, (() => void) | undefined> = {
    create:
      spec.create &&
      (() =>
        route.post(path, writing, { summary: summaries.create, body: spec.create!, response: answers.one(spec.record) }, ({ auth, contract, body }) => {
          spec.beforeWrite?.(auth);
          return present(run.create ? run.create(auth, body) : repo.create!(contract.contractId, body), contract.timeZone);
        })),
    list:
      spec.list &&
      (() =>
        route.get(path, reading, { summary: summaries.list, querystring: spec.list!, response: answers.list(readAnswer) }, ({ contract, query, page }) =>
          page(repo.list!(contract.contractId, query, query), (row) => shown(row, contract.timeZone, query as Query)),
        )),
    get: () =>
      route.get(
        one,
        reading,
        { summary: summaries.get, params, ...(getQuery ? { querystring: getQuery } : {}), response: answers.found(readAnswer) },
        ({ auth, contract, params, query }) => {
          const row = run.get ? run.get(auth, idOf(params)) : repo.get(contract.contractId, idOf(params));
          return shown(row, contract.timeZone, query as Query | undefined);
        },
      ),
    update:
      spec.update &&
      (() =>
        route.patch(one, writing, { summary: summaries.update, params, body: spec.update!, response: answers.found(spec.record) }, ({ auth, contract, params, body }) => {
          spec.beforeWrite?.(auth);
          const id = idOf(params);
          return present(run.update ? run.update(auth, id, body) : repo.update!(contract.contractId, id, body), contract.timeZone);
        })),
    delete:
      spec.delete &&
      (() =>
        route.delete(one, writing, { summary: summaries.delete, params, response: answers.noContent() }, ({ contract, params, reply }) => {
          repo.delete!(contract.contractId, idOf(params));
          return sendNoContent(reply);
        })),
  };
  for (const op of spec.only ?? ORDER) routes[op]?.();
}

/** A route plugin serving only a master's routes (the default export of a plain master's routes.ts). */
export function masterRoutes<Row, C extends z.ZodType = z.ZodNever, U extends z.ZodType = z.ZodNever, L extends z.ZodType = z.ZodNever, G extends z.ZodType = z.ZodNever>(
  entity: string,
  repo: NoInfer<MasterRepoApi<Row, C, U, L>>,
  spec: MasterRoutesSpec<Row, C, U, L, G>,
): FastifyPluginAsyncZod {
  return async (app) => registerMasterRoutes(app, entity, repo, spec);
}
