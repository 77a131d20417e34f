import { Attribute, Change } from 'ldapts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../platform/passwords.js';
import { Client, clientAs, createTestApp, createUser, dialectName, type TestContext } from '../../test/harness.js';
import { BASE_DN, PEOPLE_DN, READER_DN, READER_PASSWORD, startSlapd, type Slapd } from '../../test/slapd.js';

/** The directory: Анна and Борис (whose account is then disabled), and Вера, who is not synced. */
const PASSWORD = 'Домен-пароль-1';
const dnOf = (uid: string) => `uid=${uid},ou=Продажи,${PEOPLE_DN}`;

async function seed(slapd: Slapd): Promise<void> {
  const client = await slapd.admin();
  await client.add(`ou=Продажи,${PEOPLE_DN}`, { objectClass: 'organizationalUnit', ou: 'Продажи' });
  for (const [uid, sn, givenName] of [
    ['anna', 'Смирнова', 'Анна'],
    ['boris', 'Орлов', 'Борис'],
    ['vera', 'Орлова', 'Вера'],
  ] as const) {
    await client.add(dnOf(uid), {
      objectClass: 'inetOrgPerson',
      uid,
      cn: `${givenName} ${sn}`,
      sn,
      givenName,
      mail: `${uid}@example.com`,
      userPassword: PASSWORD,
    });
  }
  await client.unbind();
}

const env = (slapd: Slapd, url = slapd.url) => ({
  LDAP_URL: url,
  LDAP_BIND_DN: READER_DN,
  LDAP_BIND_PASSWORD: READER_PASSWORD,
  LDAP_BASE_DN: BASE_DN,
  LDAP_USER_FILTER: '(&(objectClass=inetOrgPerson)(!(uid=vera)))',
  LDAP_DISABLED_FILTER: '(employeeType=disabled)',
  LDAP_ATTR_ID: 'entryUUID',
  LDAP_DEPARTMENT_FROM_OU: 'true',
  LDAP_PAGE_SIZE: '40',
  LDAP_AUTH: 'on',
});

describe(`passwords checked against a real OpenLDAP (${dialectName})`, () => {
  let slapd: Slapd;
  let ctx: TestContext;
  let admin: Client;

  beforeAll(async () => {
    slapd = await startSlapd();
    await seed(slapd);
  }, 60_000);
  afterAll(async () => {
    await slapd.stop();
  });
  beforeEach(async () => {
    ctx = await createTestApp(env(slapd));
    ({ client: admin } = await clientAs(ctx, 'admin', { email: 'admin@example.com' }));
    const synced = await admin.post('/api/admin/directory-sync');
    expect(synced.statusCode).toBe(201);
    const batch = synced.json().data;
    expect(batch.counts.create).toBe(2);
    await admin.post(`/api/admin/people-import/${batch.id}/apply`);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const signIn = (login: string, password: string, client = new Client(ctx.app)) =>
    client.post('/login', { login, password, remember: false });
  const journal = async () =>
    ((await admin.get('/api/admin/sign-ins?per_page=200')).json().items as Record<string, unknown>[]).map((e) => ({
      login: e.login,
      method: e.method,
      failure: e.failure,
    }));

  it('a synced employee signs in with their domain password; the session is like any other', async () => {
    const anna = new Client(ctx.app);
    const res = await signIn('Anna@Example.com', PASSWORD, anna);
    expect(res.statusCode).toBe(200);
    // Their platform password is one nobody knows; it is not asked to be replaced.
    expect(res.json().user).toMatchObject({ email: 'anna@example.com', must_change_password: false });
    expect((await anna.get('/api/check-auth')).json()).toMatchObject({
      authenticated: true,
      must_change_password: false,
    });
    expect((await anna.get('/api/profile')).statusCode).toBe(200);
    expect((await journal())[0]).toEqual({ login: 'anna@example.com', method: 'ldap', failure: null });
    await anna.post('/api/logout');
    expect((await anna.get('/api/check-auth')).json().authenticated).toBe(false);
  });

  it('refuses a wrong domain password, a person the platform lacks, a disabled account and a filter in the login', async () => {
    expect((await signIn('anna@example.com', 'wrong')).json().result.message).toBe('Неверный логин или пароль');
    // In the directory, but not an employee here.
    expect((await signIn('vera@example.com', PASSWORD)).statusCode).toBe(422);
    expect((await signIn('*@example.com', PASSWORD)).statusCode).toBe(422);
    expect((await signIn('anna@example.com)(mail=*', PASSWORD)).statusCode).toBe(422);
    const tree = await slapd.admin();
    try {
      await tree.modify(
        dnOf('boris'),
        new Change({ operation: 'add', modification: new Attribute({ type: 'employeeType', values: ['disabled'] }) }),
      );
      expect((await signIn('boris@example.com', PASSWORD)).statusCode).toBe(422);
    } finally {
      await tree.modify(
        dnOf('boris'),
        new Change({
          operation: 'delete',
          modification: new Attribute({ type: 'employeeType', values: ['disabled'] }),
        }),
      );
      await tree.unbind();
    }
    expect(await journal()).toEqual(
      expect.arrayContaining([
        { login: 'anna@example.com', method: 'ldap', failure: 'wrong_password' },
        { login: 'vera@example.com', method: 'ldap', failure: 'unknown_login' },
        { login: 'boris@example.com', method: 'ldap', failure: 'wrong_password' },
      ]),
    );
  });

  it('counts directory failures against the same per-login limit', async () => {
    for (let i = 0; i < 5; i++) expect((await signIn('anna@example.com', `wrong-${i}`)).statusCode).toBe(422);
    const limited = await signIn('anna@example.com', PASSWORD);
    expect(limited.statusCode).toBe(429);
  });

  it('"SSO only" closes the platform password to synced and imported people, not to those added by hand', async () => {
    await createUser(ctx.db, { role: 'learner', email: 'manual@example.com', password: 'Ручной-пароль-1' });
    // Борис once set a platform password of his own.
    await ctx.db.kysely
      .updateTable('users')
      .set({ password_hash: await hashPassword('Свой-пароль-1') })
      .where('email', '=', 'boris@example.com')
      .execute();
    expect((await signIn('boris@example.com', 'Свой-пароль-1')).statusCode).toBe(200);

    const on = await admin.put('/api/admin/sign-in-settings', { sso_only: true });
    expect(on.json().data).toEqual({ sso_only: true, ldap_auth: true, oidc: false });
    expect((await signIn('boris@example.com', 'Свой-пароль-1')).statusCode).toBe(422);
    expect((await signIn('boris@example.com', PASSWORD)).statusCode).toBe(200);
    expect((await signIn('manual@example.com', 'Ручной-пароль-1')).statusCode).toBe(200);
    expect((await journal()).slice(0, 3)).toEqual([
      { login: 'manual@example.com', method: 'password', failure: null },
      { login: 'boris@example.com', method: 'ldap', failure: null },
      { login: 'boris@example.com', method: 'ldap', failure: 'directory_refused' },
    ]);

    // Recovery stays open to the manual account only; the answer is the same for both.
    const sent = async (email: string) => {
      const res = await new Client(ctx.app).post('/api/password/recovery-request', { email });
      expect(res.statusCode).toBe(200);
      return (
        await ctx.db.kysely
          .selectFrom('password_pins')
          .innerJoin('users', 'users.id', 'password_pins.user_id')
          .select('users.email')
          .where('users.email', '=', email)
          .execute()
      ).length;
    };
    expect(await sent('boris@example.com')).toBe(0);
    expect(await sent('manual@example.com')).toBe(1);
  });

  it('says the directory cannot be reached, the same for any login', async () => {
    const down = await createTestApp(env(slapd, 'ldap://127.0.0.1:1'));
    try {
      await createUser(down.db, { role: 'learner', email: 'anna@example.com' });
      for (const login of ['anna@example.com', 'nobody@example.com']) {
        const res = await new Client(down.app).post('/login', { login, password: 'wrong', remember: false });
        expect(res.statusCode).toBe(503);
        expect(res.json().result.message).toBe('Не удалось проверить пароль в Active Directory. Попробуйте позже.');
      }
    } finally {
      await down.close();
    }
  });
});
