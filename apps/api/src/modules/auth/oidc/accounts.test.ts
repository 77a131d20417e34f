import { afterEach, describe, expect, it } from 'vitest';
import { clientAs, createCourse, createUser, dialectName } from '../../../test/harness.js';
import { Client, locationOf, oidcTestApp, refusalOf, signInThrough, type OidcTest } from '../../../test/oidcApp.js';
import type { TestAccount } from '../../../test/oidcProvider.js';

/**
 * Who a person signing in at the provider is here (issue 33): found by address, never through an
 * address the provider has not verified, never a deleted account; unknown people made learners just
 * in time, or refused, as OIDC_CREATE_USERS says.
 */

const person = (sub: string, email: string, extra: Partial<TestAccount> = {}): TestAccount => ({
  sub,
  email,
  email_verified: true,
  given_name: 'Борис',
  family_name: 'Новиков',
  ...extra,
});

const ACCOUNTS: TestAccount[] = [
  person('boris', 'Boris.Novikov@example.com', { department: 'продажи ', position: 'Менеджер по продажам' }),
  person('vera', 'vera@example.com', { given_name: 'Вера', family_name: 'Лесная', department: 'Нет такого отдела' }),
  person('partner', 'partner@partner.example'),
  person('nameless', 'nameless@example.com', { given_name: undefined, family_name: undefined }),
  person('anna-unverified', 'anna@example.com', { email_verified: false }),
  person('gleb-unverified', 'gleb@example.com', { email_verified: false }),
  person('gone', 'gone@example.com'),
  person('no-email', 'x@example.com', { email: undefined }),
];

describe(`OpenID Connect: whose account (${dialectName})`, () => {
  let t: OidcTest;
  afterEach(async () => t?.close());

  const userByEmail = (email: string) =>
    t.ctx.db.kysely
      .selectFrom('users')
      .leftJoin('departments', 'departments.id', 'users.department_id')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select([
        'users.id',
        'users.first_name',
        'users.last_name',
        'users.position',
        'users.must_change_password',
        'users.deleted_at',
        'users.origin',
        'departments.name as department',
        'roles.code as role',
      ])
      .where('users.email', '=', email)
      .execute();

  async function setUp(createUsers: boolean) {
    t = await oidcTestApp({
      provider: { accounts: ACCOUNTS },
      env: { OIDC_CREATE_USERS: String(createUsers) },
    });
    await createUser(t.ctx.db, { role: 'manager', email: 'anna@example.com' });
    const gone = await createUser(t.ctx.db, { role: 'learner', email: 'gone@example.com' });
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ deleted_at: '2026-01-10T00:00:00.000Z', password_hash: '!deleted' })
      .where('id', '=', gone.id)
      .execute();
  }

  const signIn = (login: string) => signInThrough(t, new Client(t.ctx.app), login);

  it('with OIDC_CREATE_USERS=false an unknown person is refused and nobody is created', async () => {
    await setUp(false);
    expect(refusalOf(await signIn('boris'))).toBe('unknown_user');
    expect(await userByEmail('boris.novikov@example.com')).toEqual([]);
    expect(refusalOf(await signIn('anna-unverified'))).toBe('email_unverified');
    // Both are in the journal of sign-ins, with the address the provider gave and why.
    const { client: admin } = await clientAs(t.ctx, 'admin');
    const journal = (await admin.get('/api/admin/sign-ins?method=oidc')).json().items;
    expect(journal).toEqual([
      expect.objectContaining({ login: 'anna@example.com', success: false, failure: 'email_unverified' }),
      expect.objectContaining({ login: 'boris.novikov@example.com', success: false, failure: 'not_allowed' }),
    ]);
  });

  it('with OIDC_CREATE_USERS=true an unknown person becomes a learner of the department the provider names', async () => {
    await setUp(true);
    const { client: admin } = await clientAs(t.ctx, 'admin');
    // Turned on, 'SSO only' leaves the provider's people their way in.
    expect((await admin.put('/api/admin/sign-in-settings', { sso_only: true })).statusCode).toBe(200);
    const course = await createCourse(t.ctx.db, 'Техника продаж');
    expect((await admin.post('/api/admin/departments', { name: 'Продажи', course_ids: [course] })).statusCode).toBe(
      201,
    );

    const client = new Client(t.ctx.app);
    expect(locationOf(await signInThrough(t, client, 'boris'))).toBe('/');
    const [boris, ...more] = await userByEmail('boris.novikov@example.com');
    expect(more).toEqual([]);
    expect(boris).toMatchObject({
      first_name: 'Борис',
      last_name: 'Новиков',
      position: 'Менеджер по продажам',
      department: 'Продажи',
      role: 'learner',
      // No mailed password to replace: the own-password screen does not stand in their way.
      must_change_password: false,
      deleted_at: null,
      // Made by the provider: 'SSO only' keeps the platform's password closed to them.
      origin: 'sso',
    });
    expect((await client.get('/api/check-auth')).json()).toMatchObject({ authenticated: true, id: boris?.id });
    // They learn what their department learns.
    const enrolled = await t.ctx.db.kysely
      .selectFrom('enrollments')
      .select('course_id')
      .where('user_id', '=', boris?.id ?? 0)
      .execute();
    expect(enrolled).toEqual([{ course_id: course }]);
    // The audit of people changes says who and from where.
    const audit = (await admin.get('/api/admin/audit?source=sso')).json();
    expect(audit.items).toEqual([
      expect.objectContaining({
        actor: 'Новиков Борис',
        source: 'sso',
        action: 'user_created',
        subject_name: 'Новиков Борис',
      }),
    ]);
    // A second sign-in finds the same account; the password form does not open it.
    expect(locationOf(await signInThrough(t, new Client(t.ctx.app), 'boris'))).toBe('/');
    expect(await userByEmail('boris.novikov@example.com')).toHaveLength(1);
    const guess = await new Client(t.ctx.app).post('/login', {
      login: 'boris.novikov@example.com',
      password: 'anything',
    });
    expect(guess.statusCode).toBe(422);
  });

  it('a department the company does not have leaves the new learner without one', async () => {
    await setUp(true);
    expect(locationOf(await signIn('vera'))).toBe('/');
    expect(await userByEmail('vera@example.com')).toEqual([
      expect.objectContaining({ department: null, position: null, role: 'learner' }),
    ]);
  });

  it('only addresses of the company domain get accounts, and only with a first and last name', async () => {
    await setUp(true);
    expect(refusalOf(await signIn('partner'))).toBe('foreign_domain');
    expect(refusalOf(await signIn('nameless'))).toBe('incomplete');
    expect(await userByEmail('partner@partner.example')).toEqual([]);
    expect(await userByEmail('nameless@example.com')).toEqual([]);
  });

  it('email_verified: false never opens an existing account, nor makes a new one', async () => {
    for (const createUsers of [false, true]) {
      await setUp(createUsers);
      expect(refusalOf(await signIn('anna-unverified'))).toBe('email_unverified');
      expect(refusalOf(await signIn('gleb-unverified'))).toBe('email_unverified');
      expect(await userByEmail('gleb@example.com')).toEqual([]);
      await t.close();
    }
  });

  it('a deleted account is refused, and not made again', async () => {
    for (const createUsers of [false, true]) {
      await setUp(createUsers);
      expect(refusalOf(await signIn('gone'))).toBe('disabled');
      expect(await userByEmail('gone@example.com')).toEqual([
        expect.objectContaining({ deleted_at: expect.any(String) }),
      ]);
      await t.close();
    }
  });

  it('a provider that does not tell the address', async () => {
    await setUp(true);
    expect(refusalOf(await signIn('no-email'))).toBe('no_email');
  });
});
