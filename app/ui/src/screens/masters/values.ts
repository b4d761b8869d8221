import type { MasterSpec, Prop } from './spec';

/**
 * A form holds every field as text (or a checkbox's boolean); these turn an API row into form
 * values and form values into the JSON body the API takes, typed per field (Prop.type).
 */
export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;
type Json = Record<string, unknown>;

/** `rule.min` of `{ rule: { min: 0 } }`. */
export function read(row: Json | null | undefined, name: string): unknown {
  let value: unknown = row;
  for (const part of name.split('.')) value = value && typeof value === 'object' ? (value as Json)[part] : undefined;
  return value;
}

/** A `pairs` value in the form: `{"1":"Bean Roasters","4":"Brazil"}` (no → value). */
export const pairsOf = (value: FormValue): Record<string, string> => {
  try {
    return typeof value === 'string' && value ? (JSON.parse(value) as Record<string, string>) : {};
  } catch {
    return {};
  }
};

/** A `pairs` value written back: entries in number order, empty ones dropped (so an unchanged list compares equal). */
export const pairsValue = (map: Record<string, string>): string =>
  JSON.stringify(Object.fromEntries(Object.entries(map).filter(([, v]) => v !== '').sort(([a], [b]) => Number(a) - Number(b))));

/** The `{no, value}` list a `pairs` value is sent as: filled entries by number, so `[i]` in an API error is the i-th of them. */
export const pairsToList = (value: FormValue) =>
  Object.entries(pairsOf(value))
    .filter(([, v]) => v.trim() !== '')
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([no, v]) => ({ no, value: v }));

export function toFormValue(value: unknown, prop: Prop): FormValue {
  if (prop.input === 'pairs') {
    const list = Array.isArray(value) ? (value as Array<{ no: string; value: string }>) : [];
    return pairsValue(Object.fromEntries(list.map((p) => [p.no, p.value])));
  }
  if (prop.input === 'checkbox' || prop.type === 'boolean') return value === true || value === '1';
  return value === null || value === undefined ? '' : String(value);
}

export function formValuesOf(spec: MasterSpec, fields: readonly string[], row: Json | null, propOf: (name: string) => Prop): FormValues {
  return Object.fromEntries(fields.map((f) => [f, toFormValue(read(row, f), propOf(f))]));
}

function toJson(value: FormValue, prop: Prop): unknown {
  if (prop.input === 'pairs') return pairsToList(value);
  if (prop.type === 'boolean') return value === true;
  if (prop.input === 'checkbox') return value === true ? '1' : '0';
  const text = String(value).trim();
  if (prop.type === 'number') return text === '' ? null : /^-?\d+$/.test(text) ? Number(text) : text;
  return prop.input === 'textarea' ? String(value) : text;
}

const isEmpty = (value: FormValue) => value === '' || (typeof value === 'string' && value.trim() === '');
const isEmptyOf = (value: FormValue, prop: Prop) => (prop.input === 'pairs' ? pairsToList(value).length === 0 : isEmpty(value));

/**
 * The body of a create (every non-empty field; the API fills its defaults) or an update (only
 * the fields changed since `initial`, so a PATCH changes what the user changed; an emptied text
 * is sent as "" or null, which clears it where the API allows and is named in its answer where
 * not). A nested object (`rule.condition`, `rule.max`) is sent whole when any part is set or
 * changed, and as null when every part is empty (the API's "no rule").
 */
export function bodyOf(fields: readonly string[], values: FormValues, initial: FormValues | null, propOf: (name: string) => Prop): Json {
  const body: Json = {};
  const groups = new Map<string, string[]>();
  for (const field of fields) {
    const dot = field.indexOf('.');
    if (dot > 0) {
      const group = field.slice(0, dot);
      groups.set(group, [...(groups.get(group) ?? []), field]);
      continue;
    }
    const value = values[field] ?? '';
    const prop = propOf(field);
    if (initial) {
      if (value === initial[field]) continue;
    } else if (isEmptyOf(value, prop)) continue;
    body[field] = toJson(value, prop);
  }
  for (const [group, members] of groups) {
    const changed = initial ? members.some((m) => values[m] !== initial[m]) : members.some((m) => !isEmpty(values[m] ?? ''));
    if (!changed) continue;
    if (members.every((m) => isEmpty(values[m] ?? ''))) {
      body[group] = null;
      continue;
    }
    body[group] = Object.fromEntries(members.map((m) => [m.slice(group.length + 1), toJson(values[m] ?? '', propOf(m))]));
  }
  return body;
}
