import { z } from 'zod';
import { formatDateTime } from '../../domain/time.js';
import { fieldsParam, id, patchBody } from './fields.js';
import { masterListQuery, pageQuery, POS_PAGE } from './paging.js';

/**
 * The schema pieces every resource repeats, written once (DESIGN §3): the record's time stamps,
 * the path parameter naming a record, a list's query (filters, paging, sort, the update-time
 * range, unknown keys refused), PATCH bodies and spec 4.3's `fields`. The rules and messages
 * themselves live in paging.ts and fields.ts; this file only assembles them.
 */

type PageSize = { defaultLimit: number; maxLimit: number };
type SortFields<F extends string> = readonly [F, ...F[]];

/** When a record was made and last changed, as every master answers them (in the contract's zone). */
export const STAMPS = { insDateTime: z.string(), updDateTime: z.string() };

/** A master's answer, named `id` in the document: its own fields, then insDateTime and updDateTime. */
export const masterRecord = <S extends z.ZodRawShape>(id: string, shape: S) => z.object({ ...shape, ...STAMPS }).meta({ id });

/** A row's ins_at and upd_at as insDateTime and updDateTime in `zone`. */
export const stampsOf = (row: { ins_at: number; upd_at: number }, zone: string) => ({
  insDateTime: formatDateTime(row.ins_at, zone),
  updDateTime: formatDateTime(row.upd_at, zone),
});

type Getter<R> = (row: R, zone: string) => unknown;

/** How a row of the database becomes a record's answer, in the contract's time zone. */
export type Presenter<R, T> = (row: R, zone: string) => T;

const columnOf = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The JSON type a field answers: its schema's own type, under nullable and optional. */
const answered = (schema: unknown): string => {
  const def = (schema as { _zod: { def: { type: string; innerType?: unknown } } })._zod.def;
  return def.innerType !== undefined && (def.type === 'nullable' || def.type === 'optional') ? answered(def.innerType) : def.type;
};

/**
 * How a row becomes a record's answer, by the columns' names (DESIGN §3): each field is the
 * row's column of the same name in snake_case (cashDrawerId ← cash_drawer_id); an integer
 * column answers as a string where the record says string (ids and codes travel as strings)
 * and as true/false where it says boolean; null stays null; insDateTime and updDateTime are
 * ins_at and upd_at in the contract's zone. `computed` gives the fields that are not simply
 * their column (another column's name, money in units, a time of another column).
 */
export function presenterOf<S extends z.ZodRawShape, R extends object = object>(
  record: z.ZodObject<S>,
  computed: { [K in keyof S]?: (row: R, zone: string) => z.output<S[K]> } = {},
): (row: R, zone: string) => z.output<z.ZodObject<S>> {
  const getters = Object.entries(record.shape).map(([field, schema]): [string, Getter<R>] => {
    const own = computed[field as keyof S] as Getter<R> | undefined;
    if (own) return [field, own];
    const at = field === 'insDateTime' ? 'ins_at' : field === 'updDateTime' ? 'upd_at' : null;
    if (at) return [field, (row, zone) => formatDateTime((row as Record<string, number>)[at]!, zone)];
    const column = columnOf(field);
    const value = (row: R) => (row as Record<string, unknown>)[column];
    const type = answered(schema);
    if (type === 'string') return [field, (row) => (typeof value(row) === 'number' ? String(value(row)) : value(row))];
    if (type === 'boolean') return [field, (row) => value(row) === 1];
    return [field, value];
  });
  return (row, zone) => Object.fromEntries(getters.map(([field, get]) => [field, get(row, zone)])) as z.output<z.ZodObject<S>>;
}

/** A time column that may be unset, in `zone`; null stays null. */
export const timeOrNull = (ms: number | null, zone: string): string | null => (ms === null ? null : formatDateTime(ms, zone));

/** An integer column as the API carries it (a string); null stays null. */
export const intText = (v: number | null): string | null => (v === null ? null : String(v));

/** The path parameters that name one record by an id minted by the allocator. */
export const idParams = <const K extends string>(key: K) => z.object({ [key]: id() } as { [P in K]: ReturnType<typeof id> });

/**
 * A master list's query: its own filters first, then limit, page, sort and the update-time range
 * (`upd_date_time-from` / `-to`) of paging.ts; any other key is a 400 naming it.
 */
export const masterQuery = <S extends z.ZodRawShape, const F extends string>(filters: S, sort: SortFields<F>, size: PageSize = POS_PAGE) =>
  z.strictObject({ ...filters, ...masterListQuery(sort, size) });

/** A list's query without the update-time range (restaurant lists, sub-lists): filters, then paging and sort. */
export const pagedQuery = <S extends z.ZodRawShape, const F extends string>(filters: S, sort: SortFields<F>, size: PageSize = POS_PAGE) =>
  z.strictObject({ ...filters, ...pageQuery(sort, size) });

type Optional<T> = T extends z.ZodOptional<z.ZodType> ? T : z.ZodOptional<T & z.ZodType>;
type Optionals<S extends z.ZodRawShape> = { [K in keyof S]: Optional<S[K]> };

/**
 * The PATCH body of a create body's fields (spec 4.1: every key optional, only the keys sent
 * change; patchBody refuses unknown keys and an empty body). `replace` gives a key its own
 * PATCH rule (a required name that PATCH may replace but not clear) or adds one.
 */
export function patchOf<S extends z.ZodRawShape, R extends z.ZodRawShape = {}>(shape: S, replace?: R) {
  const optional = Object.fromEntries(Object.entries(shape).map(([key, s]) => [key, s instanceof z.ZodOptional ? s : (s as z.ZodType).optional()]));
  return patchBody({ ...(optional as Optionals<S>), ...(replace ?? ({} as R)) } as Omit<Optionals<S>, keyof R> & R);
}

/**
 * Spec 4.3 `fields` for a record: the query member (comma separated top-level names of the
 * record), the GET query holding only it, the answer's schema (any subset of the record, named
 * `<id>Fields`) and the selection itself, which keeps the record's own key order.
 */
export function fieldSelection<S extends z.ZodRawShape>(record: z.ZodObject<S>, id: string, what: string) {
  type Field = keyof S & string;
  const names = Object.keys(record.shape) as Field[];
  const query = fieldsParam(names, what).meta({ description: `comma separated fields to return, of ${names.join(', ')}; empty for all` });
  return {
    names,
    query,
    getQuery: z.strictObject({ fields: query }),
    subset: record.partial().meta({ id: `${id}Fields`, description: `the ${what} limited to the requested fields` }),
    select<T extends Partial<Record<Field, unknown>>>(value: T, fields: readonly Field[] | undefined): Partial<T> {
      if (!fields) return value;
      return Object.fromEntries(names.filter((f) => fields.includes(f)).map((f) => [f, value[f]])) as Partial<T>;
    },
  };
}

export type FieldSelection = ReturnType<typeof fieldSelection>;
