import type { ProblemView } from '../../api/problem';
import { yen } from '../../shared/format';
import type { Translate } from '../../i18n';
import type { MastersKey } from './i18n';
import { refLabel, type RefOptions } from './refs';
import { SHARED_PROPS } from './specs/common';
import { propOf, type Lang, type MasterSpec, type Prop, type RefKind } from './spec';
import { read } from './values';

/** Helpers the list and the form share: labels, cell text, URLs, messages. */
export const propFor = (spec: MasterSpec) => (name: string): Prop => propOf(spec, name, SHARED_PROPS);

/** The URL of a kind's screen with `params` (the list's filters/page/sort, `edit`, `new`). */
export function screenUrl(kind: string, params: URLSearchParams | Record<string, string>): string {
  const q = new URLSearchParams(params).toString();
  return `/masters/${kind}${q ? `?${q}` : ''}`;
}

/** The list's part of a URL query (without the form's `edit`/`new`). */
export function listParams(query: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(query);
  out.delete('edit');
  out.delete('new');
  return out;
}

/** The refs the fields `names` pick from; with `list`, also those of the filters and the scope. */
export function refsOf(spec: MasterSpec, names: readonly string[], prop: (name: string) => Prop, list: boolean): RefKind[] {
  const refs = names.map((n) => prop(n).ref).filter((r): r is RefKind => !!r);
  if (list) {
    for (const filter of Object.values(spec.filters ?? {})) if (filter?.ref) refs.push(filter.ref);
    if (spec.scope) refs.push(spec.scope.ref);
  }
  return [...new Set(refs)];
}

/** What a table cell shows for a row's field. */
export function cellText(prop: Prop, value: unknown, refs: RefOptions, lang: Lang, t: Translate<MastersKey>): string {
  if (value === null || value === undefined || value === '') return '';
  if (prop.format) return prop.format(value, lang);
  if (typeof value === 'boolean') return value ? t('masters.yes.bool') : t('masters.no.bool');
  const text = String(value);
  if (prop.options) return prop.options[text]?.[lang] ?? text;
  if (prop.ref) return refLabel(refs, prop.ref, text);
  if (prop.yen) return yen(text);
  return typeof value === 'object' ? JSON.stringify(value) : text;
}

export const rowId = (spec: MasterSpec, row: Record<string, unknown>) => String(read(row, spec.key) ?? '');
export const rowName = (spec: MasterSpec, row: Record<string, unknown> | null) => String(read(row, spec.name) ?? read(row, spec.key) ?? '');

/** The hint under a field: its own words and the API's length limit. */
export function hintOf(prop: Prop, lang: Lang, t: Translate<MastersKey>): string | undefined {
  const parts = [prop.hint?.[lang], prop.max ? t('masters.hint.max', { max: prop.max }) : undefined].filter(Boolean);
  return parts.length ? parts.join('・') : undefined;
}

/**
 * A 403 for the contract's plan or the staff member's rights, said in the user's language
 * (the API's detail kept in brackets); other problems as they are.
 */
export function explain(problem: ProblemView, t: Translate<MastersKey>): ProblemView {
  if (problem.status !== 403) return problem;
  const { right, ...fields } = problem.fields;
  if (right) return { ...problem, fields, messages: [...problem.messages, t('masters.rightForbidden', { detail: right })] };
  return {
    ...problem,
    messages: problem.messages.map((m) => (/plan \S+ cannot use/.test(m) ? t('masters.planForbidden', { detail: m }) : m)),
  };
}

/** One-shot messages a screen leaves for the next (the form's "saved" for the list). */
let flash: string | null = null;
export const setFlash = (message: string) => void (flash = message);
export function takeFlash(): string | null {
  const message = flash;
  flash = null;
  return message;
}
