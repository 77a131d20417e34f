import { EqualityFilter, InvalidCredentialsError } from 'ldapts';
import type { DirectoryConfig } from '../../config.js';
import { attributeText, connect } from './client.js';

/** What the directory says of a login and password. */
export type DirectoryVerdict = 'ok' | 'refused' | 'unavailable';

/** Whom a login names in the company: their address, and their entry's id when they are synced. */
export interface DirectoryLogin {
  email: string;
  directoryId: string | null;
}

/**
 * Checks a password against the directory (docs/rules.md §Sign-in): the service account finds the
 * one enabled employee entry with the login's address (for a synced person, the entry with their
 * id), then a second connection binds as that entry with the password. An empty password is refused
 * before asking: LDAP takes a bind without one as an anonymous bind, which succeeds.
 */
export async function checkDirectoryPassword(
  config: DirectoryConfig,
  login: DirectoryLogin,
  password: string,
): Promise<DirectoryVerdict> {
  if (password === '' || login.email === '') return 'refused';
  let dn: string | null;
  try {
    dn = await entryOf(config, login);
  } catch {
    return 'unavailable';
  }
  if (dn === null) return 'refused';
  let user;
  try {
    user = await connect(config);
    await user.bind(dn, password);
    return 'ok';
  } catch (error) {
    return error instanceof InvalidCredentialsError ? 'refused' : 'unavailable';
  } finally {
    await user?.unbind().catch(() => undefined);
  }
}

/** The DN of the enabled employee entry a login names, or null; throws when the directory cannot be asked. */
async function entryOf(config: DirectoryConfig, login: DirectoryLogin): Promise<string | null> {
  const a = config.attributes;
  const byEmail = new EqualityFilter({ attribute: a.email, value: login.email }).toString();
  const reader = await connect(config);
  try {
    await reader.bind(config.bindDn, config.bindPassword);
    const found = async (filter: string) =>
      (
        await reader.search(config.baseDn, {
          scope: 'sub',
          filter,
          attributes: [a.id],
          sizeLimit: 2,
          explicitBufferAttributes: a.id.toLowerCase() === 'objectguid' ? [a.id] : [],
        })
      ).searchEntries;
    const entries = await found(`(&${config.userFilter}${byEmail})`);
    const entry = entries.length === 1 ? entries[0] : undefined;
    if (!entry) return null;
    if (login.directoryId !== null && attributeText(entry, a.id) !== login.directoryId) return null;
    if ((await found(`(&${config.userFilter}${config.disabledFilter}${byEmail})`)).length > 0) return null;
    return entry.dn;
  } finally {
    await reader.unbind().catch(() => undefined);
  }
}
