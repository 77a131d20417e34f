import { Attribute, Change, Client as LdapClient, SizeLimitExceededError } from 'ldapts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, clientAs, createTestApp, createUser, dialectName, type TestContext } from '../../test/harness.js';
import {
  BASE_DN,
  PAGE_LIMIT,
  PEOPLE_DN,
  READER_DN,
  READER_PASSWORD,
  startSlapd,
  type Slapd,
} from '../../test/slapd.js';
import { DIRECTORY_MESSAGES, nearestOu } from './client.js';

/**
 * The test tree: departments as OUs under ou=people, 300 employees, one of them disabled. Employee 3
 * manages the others from 4 on (one naming their DN in other case and spacing), but for 8, whose
 * manager is outside the tree, and 9, whose manager is the disabled account.
 */
const DEPARTMENTS = ['Продажи', 'Склад', 'Бухгалтерия'];
const EMPLOYEES = 300;
const entryDn = (i: number, department = DEPARTMENTS[i % DEPARTMENTS.length] ?? '') =>
  `uid=user${i},ou=${department},${PEOPLE_DN}`;

function managerOf(i: number): string {
  if (i === 8) return `uid=ghost,${PEOPLE_DN}`;
  if (i === 9) return entryDn(7);
  if (i === 12) return `UID=user3, OU=ПРОДАЖИ, ${PEOPLE_DN.toUpperCase().replaceAll(',', ', ')}`;
  return entryDn(3);
}

async function seedTree(slapd: Slapd): Promise<void> {
  const client = await slapd.admin();
  for (const ou of DEPARTMENTS) await client.add(`ou=${ou},${PEOPLE_DN}`, { objectClass: 'organizationalUnit', ou });
  for (let i = 1; i <= EMPLOYEES; i++) {
    await client.add(entryDn(i), {
      objectClass: 'inetOrgPerson',
      uid: `user${i}`,
      cn: `Сотрудник ${i}`,
      sn: `Фамилия${i}`,
      givenName: 'Имя',
      mail: `User${i}@Example.com`,
      title: 'Специалист',
      ...(i === 7 ? { employeeType: 'disabled' } : {}),
      ...(i > 3 ? { manager: managerOf(i) } : {}),
    });
  }
  await client.unbind();
}

const change = (operation: 'add' | 'delete' | 'replace', type: string, value: string) =>
  new Change({ operation, modification: new Attribute({ type, values: [value] }) });

const env = (slapd: Slapd) => ({
  LDAP_URL: slapd.url,
  LDAP_BIND_DN: READER_DN,
  LDAP_BIND_PASSWORD: READER_PASSWORD,
  LDAP_BASE_DN: BASE_DN,
  LDAP_USER_FILTER: '(objectClass=inetOrgPerson)',
  LDAP_DISABLED_FILTER: '(employeeType=disabled)',
  LDAP_ATTR_ID: 'entryUUID',
  LDAP_DEPARTMENT_FROM_OU: 'true',
  LDAP_PAGE_SIZE: '40',
});

describe(`the sync with the directory, a real OpenLDAP (${dialectName})`, () => {
  let slapd: Slapd;
  let ctx: TestContext;
  let admin: Client;

  beforeAll(async () => {
    slapd = await startSlapd();
    await seedTree(slapd);
  }, 60_000);
  afterAll(async () => {
    await slapd.stop();
  });
  beforeEach(async () => {
    ctx = await createTestApp(env(slapd));
    ({ client: admin } = await clientAs(ctx, 'admin', { first_name: 'Ольга', last_name: 'Админова' }));
  });
  afterEach(async () => {
    await ctx.close();
  });

  const dryRun = async () => {
    const res = await admin.post('/api/admin/directory-sync');
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; counts: Record<string, number>; new_departments: string[] };
  };
  const apply = async (id: number) => {
    const res = await admin.post(`/api/admin/people-import/${id}/apply`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const person = (email: string) =>
    ctx.db.kysely
      .selectFrom('users')
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .select([
        'users.id',
        'users.position',
        'users.deleted_at',
        'users.directory_id',
        'users.updated_at',
        'departments.name as department',
        (eb) => eb.selectFrom('users as m').select('m.email').whereRef('m.id', '=', 'users.manager_id').as('manager'),
      ])
      .where('users.email', '=', email)
      .orderBy('users.id', 'desc')
      .executeTakeFirst();

  it('a search that does not page gets only part of the tree, as from Active Directory', async () => {
    const client = new LdapClient({ url: slapd.url });
    await client.bind(READER_DN, READER_PASSWORD);
    await expect(client.search(PEOPLE_DN, { scope: 'sub', filter: '(objectClass=inetOrgPerson)' })).rejects.toThrow(
      SizeLimitExceededError,
    );
    const paged = await client.search(PEOPLE_DN, {
      scope: 'sub',
      filter: '(objectClass=inetOrgPerson)',
      paged: { pageSize: 40 },
    });
    expect(paged.searchEntries).toHaveLength(EMPLOYEES);
    expect(EMPLOYEES).toBeGreaterThan(PAGE_LIMIT);
    await client.unbind();
  });

  it('the first sync creates everyone but the disabled account, with their departments; the second changes nothing', async () => {
    const status = (await admin.get('/api/admin/directory-sync')).json().data;
    expect(status).toEqual({ configured: true, interval_minutes: 60, last: null });
    const first = await dryRun();
    expect(first.counts).toEqual({ create: EMPLOYEES - 1, update: 0, unchanged: 1, delete: 0, error: 0 });
    expect([...first.new_departments].sort()).toEqual([...DEPARTMENTS].sort());
    expect(await person('user1@example.com')).toBeUndefined();
    expect((await apply(first.id)).result.message).toBe(
      `Изменения применены. Добавлено: ${EMPLOYEES - 1}, изменено: 0, удалено: 0.`,
    );

    const one = await person('user1@example.com');
    expect(one).toMatchObject({ department: 'Склад', position: 'Специалист', deleted_at: null, manager: null });
    for (const i of [4, 12, 300]) expect((await person(`user${i}@example.com`))?.manager).toBe('user3@example.com');
    for (const i of [8, 9]) expect((await person(`user${i}@example.com`))?.manager).toBeNull();
    expect(one?.directory_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await person('user7@example.com')).toBeUndefined();
    const audit = (await admin.get('/api/admin/audit?source=directory&per_page=1')).json();
    expect(audit.total).toBe(EMPLOYEES - 1);
    expect(audit.items[0]).toMatchObject({ actor: 'Админова Ольга', action: 'user_created', source: 'directory' });
    const listed = (await admin.get(`/api/admin/users/${one?.id}`)).json().result.data;
    expect(listed.from_directory).toBe(true);

    ctx.clock.advance(60_000);
    const second = await dryRun();
    expect(second.counts).toEqual({ create: 0, update: 0, unchanged: EMPLOYEES, delete: 0, error: 0 });
    await apply(second.id);
    expect((await person('user1@example.com'))?.updated_at).toBe(one?.updated_at);
    expect((await admin.get('/api/admin/audit?source=directory&per_page=1')).json().total).toBe(EMPLOYEES - 1);
    expect((await admin.get('/api/admin/directory-sync')).json().data.last).toMatchObject({
      id: second.id,
      status: 'applied',
    });
  });

  it('follows a move between departments, a new title, a disabled and a removed account; leaves people added by hand alone', async () => {
    const handAdded = await createUser(ctx.db, { role: 'learner', email: 'user5@example.com', first_name: 'Ручной' });
    const outsider = await createUser(ctx.db, { role: 'learner', email: 'outsider@example.com' });
    const first = await dryRun();
    expect(first.counts).toEqual({ create: EMPLOYEES - 2, update: 0, unchanged: 1, delete: 0, error: 1 });
    const errors = (await admin.get(`/api/admin/people-import/${first.id}/rows?action=error`)).json().items;
    expect(errors).toEqual([
      expect.objectContaining({
        email: 'user5@example.com',
        errors: ['Сотрудник с таким email добавлен вручную: синхронизация с каталогом его не меняет'],
      }),
    ]);
    await apply(first.id);
    const learner = new Client(ctx.app);
    await ctx.db.kysely
      .updateTable('users')
      .set({
        password_hash: (
          await ctx.db.kysely
            .selectFrom('users')
            .select('password_hash')
            .where('id', '=', outsider.id)
            .executeTakeFirstOrThrow()
        ).password_hash,
      })
      .where('email', '=', 'user10@example.com')
      .execute();
    await learner.signIn('user10@example.com');

    const tree = await slapd.admin();
    try {
      await tree.modifyDN(entryDn(2), entryDn(2, 'Продажи'));
      await tree.modify(entryDn(3), change('replace', 'title', 'Старший специалист'));
      await tree.modify(entryDn(10), change('add', 'employeeType', 'disabled'));
      await tree.del(entryDn(11));
      await tree.modify(entryDn(4), change('replace', 'manager', entryDn(1)));
      ctx.clock.advance(60_000);
      const second = await dryRun();
      expect(second.counts).toEqual({ create: 0, update: 3, unchanged: EMPLOYEES - 6, delete: 2, error: 1 });
      await apply(second.id);
    } finally {
      // The tree as it was, for the other tests.
      await tree.modifyDN(entryDn(2, 'Продажи'), entryDn(2));
      await tree.modify(entryDn(3), change('replace', 'title', 'Специалист'));
      await tree.modify(entryDn(10), change('delete', 'employeeType', 'disabled'));
      await tree.modify(entryDn(4), change('replace', 'manager', entryDn(3)));
      await tree.add(entryDn(11), {
        objectClass: 'inetOrgPerson',
        uid: 'user11',
        cn: 'Сотрудник 11',
        sn: 'Фамилия11',
        givenName: 'Имя',
        mail: 'User11@Example.com',
        title: 'Специалист',
        manager: entryDn(3),
      });
      await tree.unbind();
    }
    expect(await person('user2@example.com')).toMatchObject({ department: 'Продажи' });
    expect(await person('user3@example.com')).toMatchObject({ position: 'Старший специалист' });
    expect(await person('user4@example.com')).toMatchObject({ manager: 'user1@example.com' });
    expect((await person('user10@example.com'))?.deleted_at).toBe(ctx.clock.now().toISOString());
    expect((await person('user11@example.com'))?.deleted_at).toBe(ctx.clock.now().toISOString());
    expect((await learner.get('/api/check-auth')).json().authenticated).toBe(false);
    expect(await person('user5@example.com')).toMatchObject({ id: handAdded.id, directory_id: null, deleted_at: null });
    expect(await person('outsider@example.com')).toMatchObject({ deleted_at: null });
  });

  it('keeps the synced fields read-only in the employees tab; the role stays the platform’s', async () => {
    await apply((await dryRun()).id);
    const one = await person('user1@example.com');
    const roles = (await admin.get('/api/admin/roles')).json().result.items as { id: number; code: string }[];
    const roleId = (code: string) => roles.find((r) => r.code === code)?.id;
    const form = {
      first_name: 'Имя',
      last_name: 'Фамилия1',
      login: 'user1@example.com',
      department_id: (
        await ctx.db.kysely.selectFrom('departments').select('id').where('name', '=', 'Склад').executeTakeFirstOrThrow()
      ).id,
      position: 'Специалист',
      role_id: roleId('learner'),
    };
    const renamed = await admin.put(`/api/admin/users/${one?.id}`, { ...form, last_name: 'Другая' });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().result.message).toMatch(/приходят из каталога/);
    const managed = await admin.put(`/api/admin/users/${one?.id}`, { ...form, manager_email: 'user2@example.com' });
    expect(managed.statusCode).toBe(422);
    expect((await admin.put(`/api/admin/users/${one?.id}`, { ...form, manager_email: '' })).statusCode).toBe(200);
    expect((await admin.put(`/api/admin/users/${one?.id}`, { ...form, role_id: roleId('author') })).statusCode).toBe(
      200,
    );
    const deleted = await admin.delete(`/api/admin/users/${one?.id}`);
    expect(deleted.statusCode).toBe(422);
    expect(deleted.json().result.message).toMatch(/отключите его учётную запись в каталоге/);
  });

  it('runs on schedule without anyone, recording the sync as who did it', async () => {
    const batch = await ctx.app.jobs.syncDirectory();
    expect(batch).toMatchObject({ status: 'applied', counts: { create: EMPLOYEES - 1 } });
    const entry = (await admin.get('/api/admin/audit?source=directory&per_page=1')).json().items[0];
    expect(entry).toMatchObject({ actor: null, source: 'directory' });
    // The next run finds nothing to change: it is not applied, and its rows are not kept.
    const quiet = await ctx.app.jobs.syncDirectory();
    expect(quiet).toMatchObject({ status: 'previewed', counts: { create: 0, update: 0, delete: 0 } });
    expect((await admin.get(`/api/admin/people-import/${quiet.id}/rows`)).json().total).toBe(0);
    expect((await admin.get('/api/admin/directory-sync')).json().data.last).toMatchObject({ id: quiet.id });
  });

  it('says why when the directory cannot be read or is not set up', async () => {
    const wrong = await createTestApp({ ...env(slapd), LDAP_BIND_PASSWORD: 'wrong' });
    try {
      const { client } = await clientAs(wrong, 'admin');
      const res = await client.post('/api/admin/directory-sync');
      expect(res.statusCode).toBe(502);
      expect(res.json().result.message).toBe(DIRECTORY_MESSAGES.badCredentials);
    } finally {
      await wrong.close();
    }
    const none = await createTestApp();
    try {
      const { client } = await clientAs(none, 'admin');
      expect((await client.get('/api/admin/directory-sync')).json().data).toEqual({
        configured: false,
        interval_minutes: null,
        last: null,
      });
      const res = await client.post('/api/admin/directory-sync');
      expect(res.statusCode).toBe(422);
      expect(res.json().result.message).toBe(DIRECTORY_MESSAGES.notConfigured);
      const { client: learner } = await clientAs(none, 'learner');
      expect((await learner.post('/api/admin/directory-sync')).statusCode).toBe(403);
    } finally {
      await none.close();
    }
  });

  it('reads the department from the nearest OU, escapes undone', () => {
    expect(nearestOu('uid=a,ou=Продажи,ou=people,dc=example,dc=com')).toBe('Продажи');
    expect(nearestOu('cn=Орлов\\, Борис,OU=Отдел\\2C опт,DC=corp')).toBe('Отдел, опт');
    expect(nearestOu('cn=a,ou=\\D0\\A1\\D0\\BA\\D0\\BB\\D0\\B0\\D0\\B4,dc=x')).toBe('Склад');
    expect(nearestOu('cn=a,dc=x')).toBe('');
  });
});

describe(`the directory over TLS (${dialectName})`, () => {
  let slapd: Slapd;

  beforeAll(async () => {
    slapd = await startSlapd({ tls: true });
    await seedTree(slapd);
  }, 60_000);
  afterAll(async () => {
    await slapd.stop();
  });

  async function syncWith(extra: Record<string, string>) {
    const ctx = await createTestApp({ ...env(slapd), ...extra });
    try {
      const { client } = await clientAs(ctx, 'admin');
      const res = await client.post('/api/admin/directory-sync');
      return { status: res.statusCode, body: res.json() };
    } finally {
      await ctx.close();
    }
  }

  it('reads over ldaps:// and over StartTLS when the certificate authority is given', async () => {
    const ldaps = await syncWith({ LDAP_URL: slapd.ldapsUrl ?? '', LDAP_CA_FILE: slapd.caFile ?? '' });
    expect(ldaps.status).toBe(201);
    expect(ldaps.body.data.counts.create).toBe(EMPLOYEES - 1);
    const startTls = await syncWith({ LDAP_STARTTLS: 'true', LDAP_CA_FILE: slapd.caFile ?? '' });
    expect(startTls.status).toBe(201);
    expect(startTls.body.data.counts.create).toBe(EMPLOYEES - 1);
  });

  it('refuses a certificate it cannot trust, saying so', async () => {
    const untrusted = await syncWith({ LDAP_URL: slapd.ldapsUrl ?? '' });
    expect(untrusted.status).toBe(502);
    expect(untrusted.body.result.message).toMatch(/^Не удалось получить сотрудников из каталога: .*certificate/);
  });
});
