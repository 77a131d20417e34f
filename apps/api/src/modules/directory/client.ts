import { readFileSync } from 'node:fs';
import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { DirectoryConfig } from '../../config.js';
import { HttpError } from '../../platform/errors.js';

/** An employee as the directory has them. */
export interface DirectoryEntry {
  id: string;
  dn: string;
  email: string;
  firstName: string;
  lastName: string;
  department: string;
  position: string;
  /** The DN of the line manager's entry ('' for none). */
  managerDn: string;
  disabled: boolean;
}

export const DIRECTORY_MESSAGES = {
  notConfigured: 'Синхронизация с каталогом не настроена: задайте LDAP_URL и параметры подключения',
  unreachable: (reason: string) => `Не удалось получить сотрудников из каталога: ${reason}`,
  badCredentials: 'Каталог отклонил вход: проверьте LDAP_BIND_DN и LDAP_BIND_PASSWORD',
} as const;

const TIMEOUT_MS = 60_000;
const CONNECT_TIMEOUT_MS = 10_000;

/** The value of an attribute as text (the first of several); a binary objectGUID as hex. */
export function attributeText(entry: Entry, name: string): string {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return '';
  if (Buffer.isBuffer(first))
    return name.toLowerCase() === 'objectguid' ? first.toString('hex') : first.toString('utf8');
  return String(first).trim();
}

/** The RDNs of a DN, their escapes undone ('cn=Орлов\, Борис' → 'cn=Орлов, Борис'). */
function rdns(dn: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i++) {
    const ch = dn[i];
    if (ch === '\\' && i + 1 < dn.length) {
      const hex = dn.slice(i + 1, i + 3);
      if (/^[0-9a-f]{2}$/i.test(hex)) {
        // Escaped bytes of a UTF-8 character: gathered, then decoded together.
        const bytes: number[] = [];
        while (dn[i] === '\\' && /^[0-9a-f]{2}$/i.test(dn.slice(i + 1, i + 3))) {
          bytes.push(parseInt(dn.slice(i + 1, i + 3), 16));
          i += 3;
        }
        i--;
        current += Buffer.from(bytes).toString('utf8');
      } else {
        current += dn[i + 1];
        i++;
      }
    } else if (ch === ',') {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  return parts;
}

/** A DN as comparisons take it: its RDNs unescaped, trimmed and lower-cased. */
export function dnKey(dn: string): string {
  return rdns(dn)
    .map((rdn) => rdn.toLowerCase().replace(/\s*=\s*/, '='))
    .join(',');
}

/** The entry's nearest organizational unit: the department of a directory kept as OUs. */
export function nearestOu(dn: string): string {
  const ou = rdns(dn)
    .slice(1)
    .find((rdn) => /^ou=/i.test(rdn));
  return ou ? ou.slice(3).trim() : '';
}

function failure(error: unknown): HttpError {
  if (error instanceof InvalidCredentialsError) return new HttpError(502, DIRECTORY_MESSAGES.badCredentials);
  const reason = error instanceof Error ? error.message : String(error);
  return new HttpError(502, DIRECTORY_MESSAGES.unreachable(reason));
}

/**
 * A connection to the directory, over TLS when configured (ldaps://, or StartTLS with the configured
 * certificate authority); not yet bound. Fails like `readDirectory` when the directory cannot be reached.
 */
export async function connect(config: DirectoryConfig): Promise<Client> {
  const ca = config.caFile ? [readFileSync(config.caFile)] : undefined;
  const ldaps = config.url.toLowerCase().startsWith('ldaps:');
  // TLS options go to the connection of an ldaps:// address only: given to the client of an
  // ldap:// one, they break its StartTLS upgrade (ldapts 8), which takes its own.
  const client = new Client({
    url: config.url,
    timeout: TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    ...(ldaps && ca ? { tlsOptions: { ca } } : {}),
  });
  try {
    if (config.startTls && !ldaps) await client.startTLS(ca ? { ca } : {});
  } catch (error) {
    await client.unbind().catch(() => undefined);
    throw failure(error);
  }
  return client;
}

/**
 * Every employee entry of the directory (docs/rules.md §Directory sync), read with paged searches
 * (Active Directory answers at most 1 000 entries a page), over ldaps:// or StartTLS with the
 * configured certificate authority. Disabled accounts are those the disabled filter also matches.
 * Fails with the API's 502 and a Russian reason when the directory cannot be read.
 */
export async function readDirectory(config: DirectoryConfig): Promise<DirectoryEntry[]> {
  const client = await connect(config);
  const a = config.attributes;
  try {
    await client.bind(config.bindDn, config.bindPassword);
    const search = async (filter: string, attributes: string[]) =>
      (
        await client.search(config.baseDn, {
          scope: 'sub',
          filter,
          attributes,
          paged: { pageSize: config.pageSize },
          explicitBufferAttributes: a.id.toLowerCase() === 'objectguid' ? [a.id] : [],
        })
      ).searchEntries;
    const entries = await search(config.userFilter, [
      a.id,
      a.email,
      a.firstName,
      a.lastName,
      a.department,
      a.position,
      a.manager,
    ]);
    const disabled = new Set(
      (await search(`(&${config.userFilter}${config.disabledFilter})`, [a.id])).map((e) => attributeText(e, a.id)),
    );
    return entries.map((entry) => {
      const id = attributeText(entry, a.id);
      return {
        id,
        dn: entry.dn,
        email: attributeText(entry, a.email).toLowerCase(),
        firstName: attributeText(entry, a.firstName),
        lastName: attributeText(entry, a.lastName),
        department: config.departmentFromOu ? nearestOu(entry.dn) : attributeText(entry, a.department),
        position: attributeText(entry, a.position),
        managerDn: attributeText(entry, a.manager),
        disabled: disabled.has(id),
      };
    });
  } catch (error) {
    throw failure(error);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
