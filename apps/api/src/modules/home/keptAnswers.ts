import type { ReadVersions } from '../../db/versions.js';
import { keepNewest } from '../../platform/kept.js';

interface Kept {
  viewer: number;
  cards: number;
  from: number;
  until: number;
  text: Buffer;
}

/**
 * Each viewer's last answer of one home call, as the JSON text sent, with what it was made from: the
 * versions read with the request's session (db/versions.ts) and the time window in which time alone
 * changes nothing (`summaryChangesAt`). It is sent again only while the versions of the request are
 * the same and its time is inside the window. The versions are read before the answer's rows, so an
 * answer is never older than the versions it is kept under (at worst newer, then made again).
 */
export class KeptAnswers {
  readonly #answers = new Map<number, Kept>();

  constructor(private readonly capacity: number) {}

  get(userId: number, versions: ReadVersions, now: number): Buffer | undefined {
    const kept = this.#answers.get(userId);
    if (!kept || kept.viewer !== versions.viewer || kept.cards !== versions.cards) return undefined;
    if (now < kept.from || now >= kept.until) return undefined;
    return kept.text;
  }

  keep(userId: number, versions: ReadVersions, window: { from: number; until: number }, text: Buffer): void {
    if (window.until <= window.from) return;
    keepNewest(this.#answers, userId, { ...versions, ...window, text }, this.capacity);
  }
}
