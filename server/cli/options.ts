import { UsageError } from './errors.js';

/** The option values of a command line, typed by the options' own table (node:util parseArgs). */
export type OptionTable = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>>;
export type ValuesOf<O extends OptionTable> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['type'] extends 'string' ? string : string | boolean;
};

export const CONTRACT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A contract id option (`--id` or `--contract`), required. */
export function contractOption(value: string | undefined, flag = '--id'): string {
  if (!value) throw new UsageError(`${flag} is required`);
  if (!CONTRACT_ID.test(value)) throw new UsageError(`${flag} "${value}" must be 1-64 letters, digits, _ or -, starting with a letter or digit`);
  return value;
}

export function intOption(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || +value < min || +value > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`);
  return Number(value);
}
