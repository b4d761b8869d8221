import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseDateTime } from '../../domain/time.js';
import { dateTime } from './fields.js';

/** Page sizes of DESIGN §3: POS lists 100 (max 1000), restaurant lists 20 (max 100). */
export const POS_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const;
export const RESTAURANT_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

export interface SortKey<F extends string = string> {
  field: F;
  desc: boolean;
}

export interface Page<F extends string = string> {
  limit: number;
  page: number;
  sort: SortKey<F>[];
}

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a positive integer`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${name} must be at least 1`));

/**
 * Query members limit, page and sort for one list. `sort` takes `field` or `field:desc`,
 * comma separated; each field must be one of `fields`. Spread the result into the
 * list's query object next to its filters.
 */
export function pageQuery<const F extends string>(fields: readonly [F, ...F[]], size: { defaultLimit: number; maxLimit: number }) {
  return {
    limit: positiveInt('limit')
      .pipe(z.number().max(size.maxLimit, `limit must be at most ${size.maxLimit}`))
      .optional()
      .transform((v) => v ?? size.defaultLimit)
      .meta({ description: `page size, default ${size.defaultLimit}, at most ${size.maxLimit}` }),
    page: positiveInt('page')
      .optional()
      .transform((v) => v ?? 1)
      .meta({ description: 'page number, from 1' }),
    sort: z
      .string()
      .optional()
      .transform((text, ctx): SortKey<F>[] => {
        if (!text) return [];
        const keys: SortKey<F>[] = [];
        for (const part of text.split(',')) {
          const m = /^\s*([\w.]+)(?::(asc|desc))?\s*$/i.exec(part);
          if (!m || !(fields as readonly string[]).includes(m[1]!)) {
            ctx.addIssue({ code: 'custom', message: `${part.trim() || '(empty)'} is not a sort key; use ${fields.join(', ')} with an optional :desc` });
            return z.NEVER;
          }
          keys.push({ field: m[1] as F, desc: m[2]?.toLowerCase() === 'desc' });
        }
        return keys;
      })
      .meta({ description: `comma separated ${fields.join(', ')}, each optionally :desc` }),
  };
}

/** The update-time range every master list takes, spelled as the platform spells it (DESIGN §3). */
export interface UpdRange {
  'upd_date_time-from'?: number;
  'upd_date_time-to'?: number;
}

const updBound = (edge: string) =>
  dateTime
    .transform((v) => parseDateTime(v)!)
    .optional()
    .meta({ description: `updDateTime at or ${edge} this time (any offset)` });

/**
 * A master list's query members: paging and sort (see pageQuery) plus `upd_date_time-from` and
 * `upd_date_time-to`, which a client syncing masters sends to fetch what changed since its last run.
 */
export function masterListQuery<const F extends string>(fields: readonly [F, ...F[]], size: { defaultLimit: number; maxLimit: number }) {
  return { ...pageQuery(fields, size), 'upd_date_time-from': updBound('after'), 'upd_date_time-to': updBound('before') };
}

/** Rows for `page` are fetched with `limit + 1` so the next link needs no count query. */
export const fetchSize = (page: Page) => page.limit + 1;
export const offsetOf = (page: Page) => (page.page - 1) * page.limit;

/**
 * One page, with the look-ahead item sendPage reads, of a short list held in memory (a record's
 * details, at most 1,000): sorted by the query's keys, then by `key` ascending so equal keys keep
 * one order; `numeric` fields (ids, quantities) compare as numbers, the rest (dates, times) as text.
 */
export function memoryPage<T, F extends string>(items: T[], page: Page<F>, key: F, value: (item: T, field: F) => string, numeric: (field: F) => boolean): T[] {
  const order = [...page.sort, { field: key, desc: false }];
  const compare = (x: string, y: string, asNumbers: boolean) => (asNumbers ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0);
  const sorted = [...items].sort((a, b) => {
    for (const { field, desc } of order) {
      const c = compare(value(a, field), value(b, field), numeric(field));
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
  const start = offsetOf(page);
  return sorted.slice(start, start + fetchSize(page));
}

/**
 * Trims the look-ahead row and sets the Link header with absolute prev/next URIs that keep
 * every other query parameter as the client sent it.
 */
export function sendPage<T>(request: FastifyRequest, reply: FastifyReply, page: Page, rows: T[]): T[] {
  const hasNext = rows.length > page.limit;
  const links: string[] = [];
  if (page.page > 1) links.push(`<${pageUri(request, page.page - 1)}>; rel="prev"`);
  if (hasNext) links.push(`<${pageUri(request, page.page + 1)}>; rel="next"`);
  if (links.length) reply.header('link', links.join(', '));
  return hasNext ? rows.slice(0, page.limit) : rows;
}

function pageUri(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}
