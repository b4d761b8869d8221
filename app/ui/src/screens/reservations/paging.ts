import type { Result } from '../../api/client';
import type { ProblemView } from '../../api/problem';

/** The list answered a `Link: <…>; rel="next"` header: there is a further page (DESIGN §3). */
export const hasNextPage = (response: Response | undefined): boolean => /rel="next"/.test(response?.headers.get('link') ?? '');

export type AllPages<T> = { ok: true; data: T[]; truncated: boolean } | { ok: false; problem: ProblemView };

/**
 * Every page of a list, following the Link header: `fetchPage(1)`, `fetchPage(2)`, … A day of
 * reservations or a month of sales may well pass one page (20 to 1000 rows), so no screen may
 * read only the first. `maxPages` bounds the loop; `truncated` says when it stopped early.
 */
export async function fetchAllPages<T>(fetchPage: (page: number) => Promise<Result<T[]>>, maxPages = 100): Promise<AllPages<T>> {
  const data: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const result = await fetchPage(page);
    if (!result.ok) return { ok: false, problem: result.problem };
    data.push(...result.data);
    if (!hasNextPage(result.response) || result.data.length === 0) return { ok: true, data, truncated: false };
  }
  return { ok: true, data, truncated: true };
}
