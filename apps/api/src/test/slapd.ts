import { spawn, type ChildProcess } from 'node:child_process';
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

function config(dir: string): string {
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
    `directory ${join(dir, 'data')}`,
    'access to attrs=userPassword by anonymous auth by * none',
    'access to * by users read by * none',
    `limits users ${limits}`,
    '',
  ].join('\n');
}

export async function startSlapd(): Promise<Slapd> {
  if (!existsSync(SLAPD)) {
    throw new Error('slapd is not installed: `apt-get install slapd` (the directory sync tests run a real OpenLDAP)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'lms-slapd-'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'slapd.conf'), config(dir));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const child = spawn(SLAPD, ['-f', join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'], { stdio: 'ignore' });
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
    return { url, admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
