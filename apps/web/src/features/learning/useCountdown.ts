import { useEffect, useRef, useState } from 'react';

/** Events that say the page is back in front of the learner: tab shown, window focused, page restored. */
const WAKE_EVENTS = [
  [() => document, 'visibilitychange'],
  [() => window, 'focus'],
  [() => window, 'pageshow'],
] as const;

/**
 * Whole seconds left until `deadline` (ms on this device's clock), never below 0; null without one.
 * Read from the clock on every tick (each second, at the second's turn) rather than counted down, so
 * that ticks a hidden tab or a sleeping phone never ran are not lost; when the page comes back it is
 * read at once and `onWake` runs (the caller asks the server again, see `deadlineOnDevice`).
 */
export function useSecondsLeft(deadline: number | null, onWake?: () => void): number | null {
  const [now, setNow] = useState(() => Date.now());
  const wake = useRef(onWake);
  useEffect(() => {
    wake.current = onWake;
  });
  useEffect(() => {
    if (deadline === null) return;
    let timer: number | undefined;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      window.clearTimeout(timer);
      const rest = deadline - at;
      if (rest > 0) timer = window.setTimeout(tick, rest % 1000 || 1000);
    };
    const woke = () => {
      if (document.visibilityState === 'hidden') return;
      tick();
      wake.current?.();
    };
    tick();
    for (const [target, event] of WAKE_EVENTS) target().addEventListener(event, woke);
    return () => {
      window.clearTimeout(timer);
      for (const [target, event] of WAKE_EVENTS) target().removeEventListener(event, woke);
    };
  }, [deadline]);
  return deadline === null ? null : Math.max(0, Math.ceil((deadline - now) / 1000));
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
