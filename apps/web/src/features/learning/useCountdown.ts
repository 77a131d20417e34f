import { useEffect, useState } from 'react';

/**
 * Seconds left, one less every second (spec 02 §9), from `initial`; null when there is no countdown.
 * A new `resetKey` (the time the test was loaded) starts again from the new `initial`, so the server's
 * clock stays the reference. Plain `setInterval`, so tests drive it with fake timers.
 */
export function useCountdown(initial: number | null, resetKey: unknown): number | null {
  const [state, setState] = useState({ key: resetKey, initial, left: initial });
  let current = state;
  if (state.key !== resetKey || state.initial !== initial) {
    current = { key: resetKey, initial, left: initial };
    setState(current);
  }
  const running = current.left !== null && current.left > 0;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => {
      setState((s) => (s.left === null || s.left <= 0 ? s : { ...s, left: s.left - 1 }));
    }, 1000);
    return () => window.clearInterval(timer);
  }, [running, resetKey, initial]);
  return current.left;
}

/** The current time, renewed every second while `live`. */
export function useNow(live: boolean): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!live) return;
    const timer = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(timer);
  }, [live]);
  return now;
}
