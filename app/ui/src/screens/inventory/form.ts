import { useState } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';

/**
 * The state every inventory record form keeps (a loss, a shipment, a purchase order, their
 * edits): its field values, the API's last refusal and whether a request is on its way, with the
 * change handlers its fields take and each field's message from the refusal.
 */
export function useRecordForm<V extends Record<string, string>>(initial: V | (() => V)) {
  const [values, setValues] = useState<V>(initial);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);
  /** For a select field (it hands over the chosen value). */
  const choose = (key: keyof V) => (value: string) => setValues((x) => ({ ...x, [key]: value }));
  /** For an input field (it hands over its change event). */
  const set = (key: keyof V) => (e: { target: { value: string } }) => choose(key)(e.target.value);
  const err = (field: string) => fieldError(problem, field);
  return { values, setValues, problem, setProblem, busy, setBusy, choose, set, err };
}

/**
 * Of the optional fields `keys`, those that hold more than blanks, trimmed: what a form sends of
 * them (an empty one is left out, so the API applies its default instead of refusing "").
 */
export function filled<V extends Record<string, string>, K extends keyof V & string>(values: V, ...keys: K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = (values[key] ?? '').trim();
    if (value) out[key] = value;
  }
  return out;
}
