import { useEffect, useRef } from 'react';

/**
 * Runs `load` now and then every `ms` while the screen is mounted; a round still running when
 * the next is due is not doubled (a slow server is not flooded). The latest `load` is used, so
 * a filter change takes effect at the next round; `key` restarts the cycle at once.
 */
export function usePolling(load: () => Promise<void>, ms: number, key: unknown = null): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let running = false;
    let live = true;
    const round = async () => {
      if (running || !live) return;
      running = true;
      try {
        await latest.current();
      } finally {
        running = false;
      }
    };
    void round();
    const timer = setInterval(() => void round(), ms);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [ms, key]);
}
