import { useEffect, useMemo, useState } from 'react';
import type { Result } from '../api/client';
import type { ProblemView } from '../api/problem';

/** What a screen shows of a request: still loading, the answer, or the API's problem. */
export type Loaded<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'error'; problem: ProblemView };

/**
 * Runs `load` whenever `key` changes (a string of everything the request depends on; null: not
 * yet) and keeps the answer; a later answer never overwrites a newer one, and another key's
 * answer is never shown as this one's. `reload()` asks again
 * and keeps showing the last answer until the new one arrives (a record being worked on does
 * not blink).
 */
export function useLoad<T>(key: string | null, load: () => Promise<Result<T>>): Loaded<T> & { reload(): void } {
  const [state, setState] = useState<Loaded<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    if (key !== loadedKey) setState({ state: 'loading' });
    setLoadedKey(key);
    void load().then((r) => {
      if (live) setState(r.ok ? { state: 'done', data: r.data } : { state: 'error', problem: r.problem });
    });
    return () => {
      live = false;
    };
    // `load` is a fresh closure each render; `key` names what it depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, tick]);
  // The render in which the key changes still holds the previous key's answer: loading, not that.
  const current = key === loadedKey ? state : ({ state: 'loading' } as const);
  return useMemo(() => ({ ...current, reload: () => setTick((n) => n + 1) }), [current]);
}
