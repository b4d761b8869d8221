import { useCallback, useRef, useState } from 'react';
import { call, useApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { usePolling } from '../../shared/polling';
import { inProgress, type ExportProgress } from './request';

/** How often the progress of a running export is asked for. */
export const PROGRESS_POLL_MS = 1000;
/** The requests kept for the window's session (newest first). */
export const RECENT_KEPT = 10;
const STORAGE_KEY = 'pos-ui.exports';

/** A request made from this screen, kept in sessionStorage so a reload lists it again. */
export interface RecentExport {
  contractId: string;
  requestCode: string;
  /** Epoch ms. */
  requestedAt: number;
  /** The API's date-times of the range. */
  from: string;
  to: string;
  /** How many columns were asked for. */
  columns: number;
  sort: string;
}

export interface TrackedExport {
  request: RecentExport;
  /** The last answer of the progress endpoint; null until the first one. */
  progress: ExportProgress | null;
  /** Why the progress could not be read (a 404 once the server forgot the code, a network error…). */
  problem: ProblemView | null;
}

function stored(): RecentExport[] {
  try {
    const list = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? (list as RecentExport[]) : [];
  } catch {
    return [];
  }
}

function store(list: RecentExport[]): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(list));
  } catch {
    // Private mode or full: the list lasts for the page only.
  }
}

/**
 * The exports requested from this screen (in this window's session, for the logged-in contract)
 * and their progress: each is read once, then every second while it is queued or running.
 */
export function useRecentExports(contractId: string): { exports: TrackedExport[]; add(request: RecentExport): void } {
  const { api, contract } = useApi();
  const [exports, setExports] = useState<TrackedExport[]>(() =>
    stored()
      .filter((r) => r.contractId === contractId)
      .map((request) => ({ request, progress: null, problem: null })),
  );
  const latest = useRef(exports);
  latest.current = exports;

  const add = useCallback((request: RecentExport) => {
    const others = stored().filter((r) => !(r.contractId === request.contractId && r.requestCode === request.requestCode));
    store([request, ...others].slice(0, RECENT_KEPT));
    setExports((list) => [{ request, progress: null, problem: null }, ...list.filter((e) => e.request.requestCode !== request.requestCode)].slice(0, RECENT_KEPT));
  }, []);

  const poll = useCallback(async () => {
    const due = latest.current.filter((e) => !e.problem && inProgress(e.progress));
    if (!due.length) return;
    const answers = await Promise.all(
      due.map(async (e) => {
        const r = await call(
          api.GET('/{contract_id}/pos/transactions/details/out_file_async/{request_code}', { params: { path: { ...contract, request_code: e.request.requestCode } } }),
        );
        return { code: e.request.requestCode, r };
      }),
    );
    setExports((list) =>
      list.map((e) => {
        const answer = answers.find((a) => a.code === e.request.requestCode);
        if (!answer) return e;
        // A network error is tried again at the next round; the server's refusal (404…) is final.
        if (!answer.r.ok) return answer.r.problem.network ? e : { ...e, problem: answer.r.problem };
        return { ...e, progress: answer.r.data, problem: null };
      }),
    );
  }, [api, contract]);

  usePolling(poll, PROGRESS_POLL_MS, contractId);
  return { exports, add };
}
