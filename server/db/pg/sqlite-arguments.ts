/**
 * better-sqlite3's way of passing a statement's values, turned into the client's parameters:
 * `get(a, b)` and `get([a, b])` bind the `?` in order, one plain object binds the `@name`
 * parameters, and both may come in one call (`run(contractId, id, { ...patch, now })`).
 */
import { MixedParams, type SqlParams } from './placeholders.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

export function bindArguments(args: readonly unknown[]): SqlParams {
  const positional: unknown[] = [];
  let named: Record<string, unknown> | undefined;
  for (const arg of args) {
    if (Array.isArray(arg)) positional.push(...arg);
    else if (isPlainObject(arg)) {
      // better-sqlite3 takes one object of named parameters per call.
      if (named) throw new TypeError('a statement takes one object of named parameters');
      named = arg;
    } else positional.push(arg);
  }
  if (!named) return positional;
  return positional.length ? new MixedParams(positional, named) : named;
}
