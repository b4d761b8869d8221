import { z } from 'zod';
import { decimalError, type DecimalFormat } from '../../domain/money.js';
import { isCalendarDate, isRenderableInstant, parseDateTime } from '../../domain/time.js';

/**
 * Wire formats shared by the resources (spec §1 conventions, §2 field rules). Lengths are
 * counted in characters (code points), as a shop's staff counts them, not UTF-16 units.
 */
const charCount = (s: string) => [...s].length;

// A lone UTF-16 surrogate (valid JSON, invalid text) would be stored as garbage; refuse it.
const wellFormed = (s: string) => s.isWellFormed();
const WELL_FORMED = { message: 'must be valid Unicode text' };

/** A string of at most `max` characters. */
export const text = (max: number) =>
  z
    .string()
    .refine(wellFormed, WELL_FORMED)
    .refine((s) => charCount(s) <= max, { message: `must be at most ${max} characters` })
    .meta({ maxLength: max });

/** A required, non-blank name of at most `max` characters. */
export const name = (max: number) =>
  z
    .string()
    .refine(wellFormed, WELL_FORMED)
    .refine((s) => s.trim().length > 0, { message: 'must not be empty' })
    .refine((s) => charCount(s) <= max, { message: `must be at most ${max} characters` })
    .meta({ maxLength: max });

/** Decimal digits carried as a string: ids, sequences ("up to 9 digits"). */
export const digits = (max: number) =>
  z.string().regex(new RegExp(`^\\d{1,${max}}$`), `must be 1 to ${max} digits`);

/** An id minted by the allocator or given in a path: up to 9 digits unless stated. */
export const id = (max = 9) => digits(max);

/** Half-width alphanumerics and symbols (printable ASCII without space). */
export const halfWidthCode = (max: number) =>
  z.string().regex(new RegExp(`^[!-~]{1,${max}}$`), `must be 1 to ${max} half-width alphanumerics or symbols`);

/** A division or flag: one of the listed string values. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  // A missing key falls through to the global "is required".
  z.enum(values, { error: (issue) => (issue.input === undefined ? undefined : `must be one of ${values.join(', ')}`) });

/** Integer-formatted string (customer group displaySequence and the like). */
export const intString = z.string().regex(/^-?\d{1,9}$/, 'must be an integer of up to 9 digits');

/** RFC 3339 date-time with an offset; any offset is accepted on input. */
export const dateTime = z
  .string()
  .superRefine((s, ctx) => {
    const ms = parseDateTime(s);
    if (ms === null) ctx.addIssue({ code: 'custom', message: 'must be a date-time like 2026-11-22T10:00:00+09:00' });
    else if (!isRenderableInstant(ms)) ctx.addIssue({ code: 'custom', message: 'must lie between the years 1900 and 9999' });
  })
  .meta({ format: 'date-time' });

/** YYYY-MM-DD that exists in the calendar. */
export const date = z
  .string()
  .refine((s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    // Years 1900 to 9999, as date-times (a birthday in year 0 is a typo).
    return !!m && +m[1]! >= 1900 && isCalendarDate(+m[1]!, +m[2]!, +m[3]!);
  }, { message: 'must be a calendar date YYYY-MM-DD from 1900' })
  .meta({ format: 'date' });

/** An exact decimal carried as a JSON string (never a number: 0.1 + 0.2 must stay exact). */
export const decimalText = (format: DecimalFormat) =>
  z.string().superRefine((s, ctx) => {
    const error = decimalError(s, format);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });

/** HTML colour code (#RGB or #RRGGBB). */
export const htmlColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be an HTML colour code like #FF8800');

/** A nullable field that is cleared by null or "" (PATCH semantics of the spec). */
export const clearable = <T extends z.ZodType<string>>(schema: T) =>
  z.union([schema, z.literal(''), z.null()]).transform((v) => (v === '' ? null : v));

/** PATCH bodies: unknown keys are refused and at least one key must be sent. */
export function patchBody<S extends z.ZodRawShape>(shape: S) {
  return z
    .strictObject(shape)
    .refine((o) => Object.keys(o).length > 0, { message: 'no field to update was given' });
}

/**
 * The names of a `fields` query parameter (comma separated; a repeated parameter is read the
 * same way; blank items are skipped, as a trailing comma). No value, or an empty one, asks for
 * every field (undefined); a value of only commas (`fields=,`) names nothing and is refused
 * through `ctx` (null is returned) rather than read as every field.
 */
export function fieldNames(value: string | string[] | undefined, ctx: z.RefinementCtx): string[] | undefined | null {
  const names: string[] = [];
  for (const v of [value ?? []].flat()) {
    if (v.trim() === '') continue;
    const named = v.split(',').map((part) => part.trim()).filter(Boolean);
    if (named.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'names no field, only commas; list field names separated by commas (fields=a,b), or leave fields out for every field' });
      return null;
    }
    names.push(...named);
  }
  return names.length ? names : undefined;
}

/**
 * Spec 4.3 `fields` (the platform's on every GET): comma separated top-level names of `allowed`
 * (a repeated parameter is read the same way; blank items are skipped, so an empty value means
 * every field: undefined). A second-level name (`a.b`) is refused, and `refuse` may refuse more
 * names with its own reason (e.g. children chosen by a `with_` parameter).
 */
export function fieldsParam<const F extends string>(allowed: readonly F[], what: string, refuse: (name: string) => string | null = () => null) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value, ctx): F[] | undefined => {
      const names = fieldNames(value, ctx);
      if (names === null) return z.NEVER;
      if (names === undefined) return undefined;
      for (const n of names) {
        const message = n.includes('.')
          ? `${n}: fields of the second level and below cannot be chosen`
          : (refuse(n) ?? ((allowed as readonly string[]).includes(n) ? null : `${n} is not a ${what} field`));
        if (message) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
      }
      return names as F[];
    });
}
