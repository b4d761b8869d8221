import type { Result } from '../api/client';

/** rel names of a Link header (`<…>; rel="prev", <…>; rel="next"`): the API's paging (DESIGN §3). */
export function linkRels(header: string | null | undefined): Set<string> {
  const rels = new Set<string>();
  for (const m of (header ?? '').matchAll(/rel="?([\w-]+)"?/g)) rels.add(m[1]!);
  return rels;
}

/** The list answered a `Link: <…>; rel="next"` header: there is a further page. */
export const hasNextPage = (response: Response | undefined): boolean => linkRels(response?.headers.get('link')).has('next');

/** One page of a list and whether the API links a page before and after it. */
export interface PageOf<T> {
  rows: T[];
  hasPrev: boolean;
  hasNext: boolean;
}

/** A list call's answer as a page (rows plus the Link header's prev/next). */
export async function asPage<T>(request: Promise<Result<T[]>>): Promise<Result<PageOf<T>>> {
  const r = await request;
  if (!r.ok) return r;
  const rels = linkRels(r.response.headers.get('link'));
  return { ok: true, response: r.response, data: { rows: r.data ?? [], hasPrev: rels.has('prev'), hasNext: rels.has('next') } };
}

/** Every page read, and whether the reading stopped at `maxPages` with more to come. */
export type AllPages<T> = Result<T[]> & { truncated?: boolean };

export interface AllPagesOptions<T> {
  /** Bounds the loop (a busy day or month can pass one page; no screen may read only the first). */
  maxPages: number;
  /** The last page: by default the one without a Link `next` (or an empty one). */
  isLast?(rows: T[], response: Response): boolean;
}

/** Reads a list page by page, `fetchPage(1)`, `fetchPage(2)`, …, until its last page or `maxPages`. */
export async function readAllPages<T>(fetchPage: (page: number) => Promise<Result<T[]>>, options: AllPagesOptions<T>): Promise<AllPages<T>> {
  const isLast = options.isLast ?? ((rows: T[], response: Response) => !hasNextPage(response) || rows.length === 0);
  const rows: T[] = [];
  let response = new Response(null);
  for (let page = 1; page <= options.maxPages; page++) {
    const r = await fetchPage(page);
    if (!r.ok) return r;
    const data = r.data ?? [];
    rows.push(...data);
    response = r.response;
    if (isLast(data, r.response)) return { ok: true, data: rows, response, truncated: false };
  }
  return { ok: true, data: rows, response, truncated: true };
}
