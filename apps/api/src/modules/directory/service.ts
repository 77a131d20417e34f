import type { PeopleBatch } from '@lms/contract';
import type { DirectoryConfig } from '../../config.js';
import { unprocessable } from '../../platform/errors.js';
import type { Actor } from '../audit/service.js';
import type { PersonInput } from '../people/plan.js';
import type { PeopleImportService } from '../people/service.js';
import { DIRECTORY_MESSAGES, dnKey, readDirectory, type DirectoryEntry } from './client.js';

/**
 * The directory's entries as the people plan takes them. The manager attribute holds a DN: it
 * becomes the address of the entry it names, or none when that entry is not among those synced.
 */
export function inputsOf(entries: readonly DirectoryEntry[]): PersonInput[] {
  const emailOf = new Map(entries.map((e) => [dnKey(e.dn), e.email]));
  return entries.map((entry) => inputOf(entry, entry.managerDn ? (emailOf.get(dnKey(entry.managerDn)) ?? '') : ''));
}

function inputOf(entry: DirectoryEntry, manager: string): PersonInput {
  return {
    line: null,
    directoryId: entry.id,
    disabled: entry.disabled,
    cells: {
      last_name: entry.lastName,
      first_name: entry.firstName,
      email: entry.email,
      department: entry.department,
      position: entry.position,
      manager,
    },
  };
}

/**
 * The sync with Active Directory / LDAP (docs/rules.md §Directory sync): the directory's employees
 * planned like an import's rows (people/plan.ts, matched by the entry's lasting id), shown as a dry
 * run and then applied through the same batch; the scheduled pass does both at once.
 */
export class DirectorySync {
  constructor(
    private readonly config: DirectoryConfig | null,
    private readonly people: PeopleImportService,
    private readonly site: string,
  ) {}

  get configured(): boolean {
    return this.config !== null;
  }

  get intervalMinutes(): number | null {
    return this.config && this.config.intervalMs > 0 ? this.config.intervalMs / 60_000 : null;
  }

  /** Reads the directory and stores what syncing with it would do. */
  async dryRun(actor: Actor | null): Promise<PeopleBatch> {
    if (!this.config) throw unprocessable(DIRECTORY_MESSAGES.notConfigured);
    const entries = (await readDirectory(this.config)).filter((e) => e.id !== '');
    return this.people.directoryDryRun(actor, inputsOf(entries));
  }

  /** The scheduled sync: a dry run, applied at once when it changes anything. */
  async run(): Promise<PeopleBatch> {
    const batch = await this.dryRun(null);
    const { create, update, delete: deleted } = batch.counts;
    if (create + update + deleted === 0) {
      // Nothing to see in an hourly "no changes": its head says when the sync last ran.
      await this.people.dropRows(batch.id);
      return batch;
    }
    return this.people.apply(null, batch.id, this.site);
  }

  last(): Promise<PeopleBatch | null> {
    return this.people.lastBatch('directory');
  }
}
