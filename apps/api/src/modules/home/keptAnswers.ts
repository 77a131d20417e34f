import type { ReadVersions } from '../../db/versions.js';
import { keepNewest } from '../../lib/kept.js';

interface Kept {
  viewer: number;
  cards: number;
  from: number;
  until: number;
  text: Buffer;
}

/** An answer as made: its JSON text and the instant from which time alone may change it. */
export interface MadeAnswer {
  text: string;
  until: number;
}

/**
 * Each viewer's last answer of one home call, as the JSON text sent, with what it was made from: the
 * versions read with the request's session (db/versions.ts) and the time window in which time alone
 * changes nothing (`summaryChangesAt`). It is sent again only while the versions of the request are
 * the same and its time is inside the window. The versions are read before the answer's rows, so an
 * answer is never older than the versions it is kept under (at worst newer, then made again). The
 * viewers asked for most recently are kept.
 */
export class KeptAnswers {
  readonly #answers = new Map<number, Kept>();

  constructor(private readonly capacity: number) {}

  /**
   * The answer for `userId` at `now`: the kept one while it holds, else `make()`'s, kept when
   * `versions` are given (none: inside a transaction, or a route that does not read them).
   */
  async answer(
    userId: number,
    versions: ReadVersions | undefined,
    now: number,
    make: () => Promise<MadeAnswer>,
  ): Promise<Buffer> {
    const kept = this.#answers.get(userId);
    if (versions && kept && kept.viewer === versions.viewer && kept.cards === versions.cards) {
      if (now >= kept.from && now < kept.until) {
        keepNewest(this.#answers, userId, kept, this.capacity);
        return kept.text;
      }
    }
    const made = await make();
    // Its own memory: a small buffer cut from Node's shared pool would keep the whole 8 kB block.
    const text = Buffer.allocUnsafeSlow(Buffer.byteLength(made.text));
    text.write(made.text);
    if (versions && made.until > now) {
      const { viewer, cards } = versions;
      keepNewest(this.#answers, userId, { viewer, cards, from: now, until: made.until, text }, this.capacity);
    }
    return text;
  }
}
