import { call, type Api, type Result } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { asPage, type PageOf } from '../../shared/paging';
import type { MasterSpec } from './spec';

/**
 * The generic calls of the master screens. Which path, method, query key and body key a kind
 * may use is checked where the kind is described (spec.ts defineKind, against schema.d.ts);
 * here the one typed client is called with those checked strings, so the dispatch alone is
 * untyped.
 */
type Row = Record<string, unknown>;
type Init = { params: { path: Record<string, string>; query?: Record<string, string> }; body?: unknown };
type Call = (path: string, init: Init) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
type Loose = Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Call>;
const loose = (api: Api) => api as unknown as Loose;

export type ListPage = PageOf<Row>;

export function listRows(api: Api, spec: MasterSpec, path: Record<string, string>, query: Record<string, string>): Promise<Result<ListPage>> {
  return asPage(call(loose(api).GET(spec.list, { params: { path, query } })) as Promise<Result<Row[]>>);
}

const itemPath = (spec: MasterSpec, path: Record<string, string>, id: string) => ({ ...path, [spec.idParam ?? '']: id });

export async function loadRow(api: Api, spec: MasterSpec, path: Record<string, string>, id: string): Promise<Result<Row>> {
  if (spec.load === 'item' && spec.item) return call(loose(api).GET(spec.item, { params: { path: itemPath(spec, path, id) } })) as Promise<Result<Row>>;
  const filter = typeof spec.load === 'object' ? spec.load.listFilter : null;
  const r = await listRows(api, spec, path, filter ? { [filter]: id } : {});
  if (!r.ok) return r;
  const row = r.data.rows.find((x) => String(x[spec.key]) === id);
  const missing: ProblemView = { status: 404, title: 'Not Found', fields: {}, messages: [`${spec.key} ${id} does not exist`] };
  return row ? { ok: true, data: row, response: r.response } : { ok: false, problem: missing };
}

export function createRow(api: Api, spec: MasterSpec, path: Record<string, string>, body: Row): Promise<Result<Row>> {
  return call(loose(api).POST(spec.list, { params: { path }, body })) as Promise<Result<Row>>;
}

export function updateRow(api: Api, spec: MasterSpec, path: Record<string, string>, id: string, body: Row): Promise<Result<unknown>> {
  const method = spec.update === 'put' ? 'PUT' : 'PATCH';
  return call(loose(api)[method](spec.item ?? '', { params: { path: itemPath(spec, path, id) }, body }));
}

export function deleteRow(api: Api, spec: MasterSpec, path: Record<string, string>, id: string): Promise<Result<unknown>> {
  return call(loose(api).DELETE(spec.item ?? '', { params: { path: itemPath(spec, path, id) } }));
}
