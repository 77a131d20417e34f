import { hmac, safeEqual } from '../../platform/tokens.js';

/**
 * The capability in a SCO's address (docs/decisions.md §SCORM content): one learner's run, signed,
 * until it expires. The package's files and its commits are reached only through it, so they need no
 * cookie: the frame runs on another origin (or none) and must not be able to act as the learner.
 */
export interface LaunchClaims {
  runId: number;
  userId: number;
  /** Seconds since the epoch. */
  expires: number;
}

/** How long a launch may be used: a learner may leave a package open for a working day. */
export const LAUNCH_SECONDS = 24 * 3600;

const PURPOSE = 'scorm-launch';

export function signLaunch(secret: string, claims: LaunchClaims): string {
  const body = `${claims.runId}.${claims.userId}.${claims.expires}`;
  return `${body}.${hmac(secret, `${PURPOSE}:${body}`)}`;
}

/** The claims of a genuine, unexpired token, else null. */
export function readLaunch(secret: string, token: string, nowMs: number): LaunchClaims | null {
  const m = /^(\d{1,12})\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const [runId, userId, expires] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!safeEqual(hmac(secret, `${PURPOSE}:${runId}.${userId}.${expires}`), m[4] ?? '')) return null;
  if (expires * 1000 < nowMs) return null;
  return { runId, userId, expires };
}
