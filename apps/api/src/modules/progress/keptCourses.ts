import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { liveCourseRows, type ViewerCourseRow } from './viewer.js';

/**
 * The live course rows as a viewer with no enrollment and no state sees them, kept by the process for
 * as long as `counters.course_cards_version` holds (migration 0013: raised by triggers in the same
 * transaction as any change of what the rows show). The catalogue and the home list then read only
 * the version with the viewer's own rows, whatever the number of courses (issue 14 item 6).
 *
 * The caller reads the version before asking for the rows, so kept rows are never older than their
 * version; a version older than the one kept is answered with fresh rows and not kept. Only committed
 * data may be kept: callers use this outside a transaction.
 */
export class KeptCourseRows {
  #kept: { version: number; rows: Promise<readonly ViewerCourseRow[]> } | undefined;

  rows(db: Kysely<Database>, version: number): Promise<readonly ViewerCourseRow[]> {
    const kept = this.#kept;
    if (kept && kept.version === version) return kept.rows;
    const rows = liveCourseRows(db).then((list) => list.map((r) => Object.freeze(r)));
    if (kept && kept.version > version) return rows;
    // Concurrent requests of one version share one read; a failed read is not kept.
    const entry = { version, rows };
    this.#kept = entry;
    rows.catch(() => {
      if (this.#kept === entry) this.#kept = undefined;
    });
    return rows;
  }
}
