import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';

/**
 * A real OpenLDAP server for a test (Debian's slapd, which `.ci/run` installs): its own folder, a
 * free port, a tree under dc=example,dc=com, and a reader account that, like Active Directory's
 * accounts, gets at most PAGE_LIMIT entries from a search that does not page.
 */

const SLAPD = '/usr/sbin/slapd';
export const BASE_DN = 'dc=example,dc=com';
const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = 'root-secret';
export const READER_DN = `cn=reader,${BASE_DN}`;
export const READER_PASSWORD = 'reader-secret';
export const PEOPLE_DN = `ou=people,${BASE_DN}`;
/** Entries a search may return without paging, and per page. */
export const PAGE_LIMIT = 50;

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

function config(dir: string, tls: ReturnType<typeof certificates> | undefined): string {
  const limits = `size.soft=${PAGE_LIMIT} size.hard=${PAGE_LIMIT} size.pr=${PAGE_LIMIT} size.prtotal=unlimited`;
  return [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`),
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    'database mdb',
    'maxsize 104857600',
    `suffix "${BASE_DN}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ROOT_PASSWORD}`,
    ...(tls
      ? [`TLSCACertificateFile ${tls.ca}`, `TLSCertificateFile ${tls.cert}`, `TLSCertificateKeyFile ${tls.key}`]
      : []),
    `directory ${join(dir, 'data')}`,
    'access to attrs=userPassword by anonymous auth by * none',
    'access to * by users read by * none',
    `limits users ${limits}`,
    '',
  ].join('\n');
}

export async function startSlapd(opts: { tls?: boolean } = {}): Promise<Slapd> {
  if (!existsSync(SLAPD)) {
    throw new Error('slapd is not installed: `apt-get install slapd` (the directory sync tests run a real OpenLDAP)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'lms-slapd-'));
  mkdirSync(join(dir, 'data'));
  const tls = opts.tls ? certificates(dir) : undefined;
  writeFileSync(join(dir, 'slapd.conf'), config(dir, tls));
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
    const client = await admin();
    await client.add(BASE_DN, { objectClass: ['dcObject', 'organization'], dc: 'example', o: 'Example' });
    await client.add(READER_DN, {
      objectClass: ['organizationalRole', 'simpleSecurityObject'],
      cn: 'reader',
      userPassword: READER_PASSWORD,
    });
    await client.add(PEOPLE_DN, { objectClass: 'organizationalUnit', ou: 'people' });
    await client.unbind();
    return { url, ldapsUrl, caFile: tls?.ca, admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
