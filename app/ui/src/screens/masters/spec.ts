import type { ComponentType } from 'react';
import type { paths } from '../../api/client';
import type { MasterKind } from './kinds';

/**
 * A master kind is described once (specs/*.ts) and drawn by one list (MasterList) and one form
 * (MasterForm). `defineKind` checks the description against the generated API types
 * (api/schema.d.ts): the paths must exist with the methods used, columns must be fields of the
 * list's rows, form fields keys of the POST/PATCH/PUT bodies and filters parameters of the list,
 * so a schema change breaks the type check. The description it returns is plain data.
 */

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Path = keyof paths;
type OpOf<P extends Path, M extends Method> = NonNullable<paths[P][M]>;
type Has<P extends Path, M extends Method> = [OpOf<P, M>] extends [never] ? false : true;
type PathsWith<M extends Method> = { [P in Path]: Has<P, M> extends true ? P : never }[Path];
type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** One row of a list (GET answering a JSON array). */
export type RowOf<P extends Path> = OpOf<P, 'get'> extends { responses: { 200: infer R } } ? (Json<R> extends ReadonlyArray<infer E> ? E : never) : never;
type QueryOf<P extends Path> = OpOf<P, 'get'> extends { parameters: { query?: infer Q } } ? ([NonNullable<Q>] extends [never] ? object : NonNullable<Q>) : object;
type BodyOf<P extends Path, M extends Method> = [OpOf<P, M>] extends [never] ? never : OpOf<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
type PathParamsOf<P extends Path> = OpOf<P, Method> extends { parameters: { path: infer A } } ? keyof A : never;

/** Body keys, with `rule.min` for the keys of a nested object (sent whole, see values.ts). */
type Leaves<B> = B extends object
  ? { [K in keyof B & string]-?: NonNullable<B[K]> extends readonly unknown[] ? K : NonNullable<B[K]> extends object ? `${K}.${keyof NonNullable<B[K]> & string}` : K }[keyof B & string]
  : never;

export type Lang = 'ja' | 'en';
export type Label = Readonly<Record<Lang, string>>;
export const L = (ja: string, en: string): Label => ({ ja, en });

/** Lists the form can pick from (refs.ts loads them). */
export type RefKind = 'stores' | 'categories' | 'paymentMethodGroups' | 'customerGroupSections' | 'cashDrawers' | 'menus' | 'productLabels';

/** How one field is shown, entered and sent. */
export interface Prop {
  label: Label;
  /**
   * The control; `text` by default (options make it a select, ref a select of another master;
   * `pairs` is a list of `{no, value}` with one input per row of the ref, e.g. free-item values).
   */
  input?: 'text' | 'textarea' | 'date' | 'color' | 'decimal' | 'checkbox' | 'number' | 'pairs';
  /** The JSON type the API wants: `string` unless stated; an empty number is sent as null. */
  type?: 'string' | 'number' | 'boolean';
  options?: Readonly<Record<string, Label>>;
  ref?: RefKind;
  required?: boolean;
  /** The API's length limit, shown as a hint (the API checks it and names the field). */
  max?: number;
  hint?: Label;
  /** Amounts: `¥1,234` in lists. */
  yen?: boolean;
  /** How a list shows a value no option or ref names (a nested object). */
  format?: (value: unknown, lang: Lang) => string;
}

export type Plan = 'standard' | 'premium' | 'premium_plus' | 'food_business' | 'retail_business' | 'enterprise';

/** What a kind's extra component (the staff rights note) gets. */
export interface NoteProps {
  row: Record<string, unknown> | null;
  contractId: string;
  /** The form above may be saved (false: the contract's plan may only view this kind). */
  formEditable: boolean;
}

/** The description a kind's file writes, checked against the paths it names. */
export interface KindSpec<LP extends PathsWith<'get'>, IP extends Path> {
  kind: MasterKind;
  /** GET list (and POST create) path. */
  list: LP;
  /** Item path (GET/PATCH/PUT/DELETE), `{idParam}` filled from the row's `key`. */
  item?: IP;
  idParam?: Exclude<PathParamsOf<IP>, 'contract_id' | PathParamsOf<LP>>;
  key: keyof RowOf<LP> & string;
  /** The row's name, for the delete question. */
  name: keyof RowOf<LP> & string;
  /** A path parameter of the list chosen above it (the menu conditions' store). */
  scope?: { param: Exclude<PathParamsOf<LP>, 'contract_id'>; ref: RefKind; label: Label };
  create?: Has<LP, 'post'> extends true ? boolean : never;
  update?: (Has<IP, 'patch'> extends true ? 'patch' : never) | (Has<IP, 'put'> extends true ? 'put' : never);
  remove?: Has<IP, 'delete'> extends true ? boolean : never;
  /** How the edit form loads its row: GET on the item, or the list filtered by the row's id. */
  load?: (Has<IP, 'get'> extends true ? 'item' : never) | { listFilter: keyof QueryOf<LP> & string };
  columns: ReadonlyArray<keyof RowOf<LP> & string>;
  form: ReadonlyArray<Leaves<BodyOf<LP, 'post'>> | Leaves<BodyOf<IP, 'patch'>> | Leaves<BodyOf<IP, 'put'>>>;
  /** Sent only when creating (a code in the path, a store a menu stays in). */
  createOnly?: ReadonlyArray<Exclude<Leaves<BodyOf<LP, 'post'>>, Leaves<BodyOf<IP, 'patch'>>>>;
  filters?: { [K in keyof QueryOf<LP> & string]?: Prop };
  /** The API's sort keys (shown as a select); `column` names the column a key sorts, when it differs. */
  sort?: ReadonlyArray<string>;
  sortColumns?: Readonly<Record<string, keyof RowOf<LP> & string>>;
  paging: 'pos' | 'restaurant' | null;
  props: { [K in (keyof RowOf<LP> & string) | Leaves<BodyOf<LP, 'post'>> | Leaves<BodyOf<IP, 'patch'>> | Leaves<BodyOf<IP, 'put'>>]?: Prop };
  /** A restaurant master (base path /waiter): other plans get a notice first. */
  restaurant?: boolean;
  /** Plans the API lets write (spec §4 names plans for some operations); others see a notice. */
  plans?: { create?: readonly Plan[]; update?: readonly Plan[]; remove?: readonly Plan[] };
  /** Shown under the form (the staff's rights, which only the CLI sets). */
  note?: ComponentType<NoteProps>;
  /** A line above the list. */
  intro?: Label;
}

/** The same description with the types erased, as the generic components read it. */
export interface MasterSpec {
  kind: MasterKind;
  list: string;
  item?: string;
  idParam?: string;
  key: string;
  name: string;
  scope?: { param: string; ref: RefKind; label: Label };
  create?: boolean;
  update?: 'patch' | 'put';
  remove?: boolean;
  load?: 'item' | { listFilter: string };
  columns: readonly string[];
  form: readonly string[];
  createOnly?: readonly string[];
  filters?: Readonly<Record<string, Prop | undefined>>;
  sort?: readonly string[];
  sortColumns?: Readonly<Record<string, string>>;
  paging: 'pos' | 'restaurant' | null;
  props: Readonly<Record<string, Prop | undefined>>;
  restaurant?: boolean;
  plans?: { create?: readonly Plan[]; update?: readonly Plan[]; remove?: readonly Plan[] };
  note?: ComponentType<NoteProps>;
  intro?: Label;
}

export function defineKind<LP extends PathsWith<'get'>, IP extends Path = never>(spec: KindSpec<LP, IP>): MasterSpec {
  return spec as unknown as MasterSpec;
}

/** The spec's own label of a field, else the shared one, else the API's name. */
export function propOf(spec: MasterSpec, name: string, shared: Readonly<Record<string, Prop>>): Prop {
  return spec.props[name] ?? shared[name] ?? { label: { ja: name, en: name } };
}

/** Whether the contract's plan may do `op` (no list: every plan). */
export const planAllows = (spec: MasterSpec, op: 'create' | 'update' | 'remove', plan: string) => {
  const allowed = spec.plans?.[op];
  return !allowed || !plan || allowed.includes(plan as Plan);
};
