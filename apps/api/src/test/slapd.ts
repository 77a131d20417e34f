import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';

/**
 * A real OpenLDAP server for a test or a benchmark (Debian's slapd, which `.ci/run` installs): its
 * own folder, a free port, a tree under dc=example,dc=com, and a reader account that, like Active
 * Directory's accounts, gets at most `pageLimit` entries from a search that does not page, and is
 * refused a page larger than that. The tree's first entries, and any number of the caller's, are
 * loaded offline with slapadd before the server starts (50 000 entries in seconds).
 */

export const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
export const BASE_DN = 'dc=example,dc=com';
const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = 'root-secret';
export const READER_DN = `cn=reader,${BASE_DN}`;
export const READER_PASSWORD = 'reader-secret';
export const PEOPLE_DN = `ou=people,${BASE_DN}`;
/** Entries a search may return without paging, and per page. */
export const PAGE_LIMIT = 50;

/** An entry to load: its DN and attributes (values written base64 in the LDIF when they must be). */
export interface LdifEntry {
  dn: string;
  attributes: Record<string, string | readonly string[]>;
}

export interface SlapdOptions {
  /** Serve ldaps:// too, with a certificate signed by an authority of its own. */
  tls?: boolean;
  /** Entries a search may return without paging, and at most per page (PAGE_LIMIT by default). */
  pageLimit?: number;
  /** Entries loaded with the base ones before the server starts, parents before children. */
  entries?: Iterable<LdifEntry>;
}

export interface Slapd {
  url: string;
  /** With `tls`: the same server over ldaps://, and the PEM file of the authority that signed it. */
  ldapsUrl: string | undefined;
  caFile: string | undefined;
  /** A client bound as the tree's root, to change the tree between syncs. */
  admin(): Promise<Client>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** Resolves once the port accepts a connection, polling between tries (slapd says nothing when ready). */
async function accepting(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error('slapd did not start');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A certificate authority and a server certificate for 127.0.0.1 signed by it (openssl), so that
 * ldaps:// and StartTLS are tested with a real chain: trusted only with LDAP_CA_FILE.
 */
function certificates(dir: string): { ca: string; cert: string; key: string } {
  const at = (name: string) => join(dir, name);
  const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=LMS test CA',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    at('server.key'),
    '-out',
    at('server.csr'),
  );
  writeFileSync(at('server.ext'), 'subjectAltName = IP:127.0.0.1, DNS:localhost\n');
  run(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    at('server.ext'),
    '-out',
    at('server.pem'),
  );
  return { ca: at('ca.pem'), cert: at('server.pem'), key: at('server.key') };
}

/**
 * The reader's limits: `pageLimit` entries from a search without paging (then sizeLimitExceeded, as
 * Active Directory's MaxPageSize), a page asking for more refused (adminLimitExceeded), and any
 * number in all through pages.
 */
function config(dir: string, tls: ReturnType<typeof certificates> | undefined, pageLimit: number): string {
  const limits = `size.soft=${pageLimit} size.hard=${pageLimit} size.pr=${pageLimit} size.prtotal=unlimited`;
  return [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`),
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    'database mdb',
    // The map's upper bound (sparse): a tree of 50 000 people takes some hundred MB.
    'maxsize 2147483648',
    `suffix "${BASE_DN}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ROOT_PASSWORD}`,
    ...(tls
      ? [`TLSCACertificateFile ${tls.ca}`, `TLSCertificateFile ${tls.cert}`, `TLSCertificateKeyFile ${tls.key}`]
      : []),
    `directory ${join(dir, 'data')}`,
    'index objectClass eq',
    'access to attrs=userPassword by anonymous auth by * none',
    'access to * by users read by * none',
    `limits users ${limits}`,
    '',
  ].join('\n');
}

/**
 * A value as LDIF writes it (RFC 2849): as it is when it is a SAFE-STRING (printable ASCII, not
 * starting with a space, ':' or '<', not ending with a space), else base64 after '::'.
 */
function ldifLine(name: string, value: string): string {
  const printable = [...value].every((ch) => ch >= ' ' && ch <= '~');
  const safe = printable && !/^[ :<]/.test(value) && !value.endsWith(' ');
  return safe ? `${name}: ${value}\n` : `${name}:: ${Buffer.from(value, 'utf8').toString('base64')}\n`;
}

export function ldif(entry: LdifEntry): string {
  let out = ldifLine('dn', entry.dn);
  for (const [name, values] of Object.entries(entry.attributes)) {
    for (const value of typeof values === 'string' ? [values] : values) out += ldifLine(name, value);
  }
  return `${out}\n`;
}

/** The tree's base, the reader and ou=people. */
function baseEntries(): LdifEntry[] {
  return [
    { dn: BASE_DN, attributes: { objectClass: ['dcObject', 'organization'], dc: 'example', o: 'Example' } },
    {
      dn: READER_DN,
      attributes: {
        objectClass: ['organizationalRole', 'simpleSecurityObject'],
        cn: 'reader',
        userPassword: READER_PASSWORD,
      },
    },
    { dn: PEOPLE_DN, attributes: { objectClass: 'organizationalUnit', ou: 'people' } },
  ];
}

/** Writes the entries to an LDIF file and loads it into the (stopped) server's database. */
function load(dir: string, entries: Iterable<LdifEntry>): void {
  const file = join(dir, 'tree.ldif');
  const fd = openSync(file, 'w');
  try {
    let chunk = '';
    for (const entry of entries) {
      chunk += ldif(entry);
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  // -q: no checks of the entries' consistency (each is written as given), the fast way to load.
  execFileSync(SLAPADD, ['-q', '-f', join(dir, 'slapd.conf'), '-l', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  rmSync(file);
}

function* withBase(entries: Iterable<LdifEntry>): Iterable<LdifEntry> {
  yield* baseEntries();
  yield* entries;
}

export async function startSlapd(opts: SlapdOptions = {}): Promise<Slapd> {
  if (!existsSync(SLAPD)) {
    throw new Error('slapd is not installed: `apt-get install slapd` (the directory sync tests run a real OpenLDAP)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'lms-slapd-'));
  mkdirSync(join(dir, 'data'));
  const tls = opts.tls ? certificates(dir) : undefined;
  writeFileSync(join(dir, 'slapd.conf'), config(dir, tls, opts.pageLimit ?? PAGE_LIMIT));
  try {
    load(dir, withBase(opts.entries ?? []));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : undefined;
  const listen = [`${url}/`, ...(ldapsUrl ? [`${ldapsUrl}/`] : [])].join(' ');
  const child = spawn(SLAPD, ['-f', join(dir, 'slapd.conf'), '-h', listen, '-d', '0'], { stdio: 'ignore' });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await accepting(port, child);
    const admin = async () => {
      const client = new Client({ url });
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      return client;
    };
    return { url, ldapsUrl, caFile: tls?.ca, admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
