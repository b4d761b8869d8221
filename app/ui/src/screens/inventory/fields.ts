import type { ProblemView } from '../../api/problem';

/**
 * The API names array positions of what it was sent (`details[2].quantity`); a form that sends
 * only some of its lines maps those positions back to its own lines, so each message lands on
 * the field it is about. `sent[k]` is the form line that went out at position k.
 */
export function remapPositions(problem: ProblemView, array: string, sent: readonly number[]): ProblemView {
  const prefix = new RegExp(`^${array.replace(/[.[\]]/g, '\\$&')}\\[(\\d+)\\]`);
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(problem.fields)) {
    const m = prefix.exec(field);
    const line = m ? sent[Number(m[1])] : undefined;
    const key = m && line !== undefined ? field.replace(prefix, `${array}[${line}]`) : field;
    fields[key] = fields[key] ? `${fields[key]}; ${message}` : message;
  }
  return { ...problem, fields };
}

/** The keys of `next` whose value differs from `before` (a PATCH sends only what changed). */
export function changed<T extends Record<string, string>>(next: T, before: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) if (next[key] !== before[key]) out[key] = next[key];
  return out;
}

/** A cost amount (cost × quantity, or their sum) to the 5 decimals the API keeps costs in, as a decimal string. */
export const fiveDecimals = (n: number) => String(Math.round(n * 100000) / 100000);

/** The quantity and the cost amount (cost × quantity) of a record's lines together, as its table's foot shows them. */
export function lineTotals(lines: readonly { quantity: string; cost: string }[]): { quantity: number; cost: number } {
  return {
    quantity: lines.reduce((sum, l) => sum + Number(l.quantity), 0),
    cost: lines.reduce((sum, l) => sum + Number(l.cost) * Number(l.quantity), 0),
  };
}
