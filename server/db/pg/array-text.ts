/**
 * A parameter that is an array, written as PostgreSQL's array text on the calling thread, exactly
 * as `pg` would write it in the worker (its utils.arrayString: `{"a","b\"c",NULL}`): central's
 * set-based push binds one array per column (the dialect's insertRows), 500 sales' worth each.
 * One string goes to the worker thread as a copy of its bytes, where thousands of values were
 * cloned one by one and then written out by `pg` element by element (~18 ms of a 500-sale batch
 * against ~4 ms here).
 *
 * Only arrays of strings, numbers and nulls are written here; any other element (a boolean, a
 * Buffer, a Date, an object, a nested array, a bigint) leaves the whole array to `pg`.
 */

const ESCAPED = /["\\]/;
const TO_ESCAPE = /["\\]/g;

/** The array's text as `pg` writes it, or undefined when an element is of a kind left to `pg`. */
export function arrayText(values: readonly unknown[]): string | undefined {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += ',';
    const value = values[i];
    if (value === null || value === undefined) text += 'NULL';
    else if (typeof value === 'string') text += ESCAPED.test(value) ? `"${value.replace(TO_ESCAPE, '\\$&')}"` : `"${value}"`;
    else if (typeof value === 'number') text += `"${value}"`;
    else return undefined;
  }
  return `${text}}`;
}

/** Replaces in place each array of strings, numbers and nulls among a statement's values by its text (arrayText). */
export function withArraysAsText(values: unknown[]): unknown[] {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (Array.isArray(value)) values[i] = arrayText(value) ?? value;
  }
  return values;
}
