import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../platform/clock.js';
import {
  Client,
  createTestApp,
  createUser,
  DEFAULT_PASSWORD,
  dialectName,
  type TestContext,
} from '../../test/harness.js';

const codeFrom = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1] ?? '';
const passwordFrom = (text: string | undefined) => /Новый пароль: (\S+)/.exec(text ?? '')?.[1] ?? '';

describe(`password recovery (${dialectName})`, () => {
  let ctx: TestContext;
  let client: Client;
  let email: string;
  beforeEach(async () => {
    ctx = await createTestApp();
    client = new Client(ctx.app);
    email = (await createUser(ctx.db, { role: 'learner' })).email;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const request = (address = email) => client.post('/api/password/recovery-request', { email: address });
  const check = (pin: string, address = email) =>
    client.post('/api/password/check-pin', { email: address, pin_code: pin });
  const reset = (pin: string, address = email) =>
    client.post('/api/password/reset-by-pin', { email: address, pin_code: pin });
  const wrong = (pin: string) => (pin === '000000' ? '111111' : '000000');

  it('answers the same for known and unknown addresses and mails only the known one', async () => {
    const known = await request();
    const unknown = await request('ghost@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(ctx.mailer.sent.map((m) => m.to)).toEqual([email]);
    const mail = ctx.mailer.last(email);
    expect(mail?.subject).toContain('Тестовая компания');
    expect(codeFrom(mail?.text)).toMatch(/^\d{6}$/);
    expect(mail?.html).toContain(codeFrom(mail?.text));
  });

  it('stores the code hashed, not in clear', async () => {
    await request();
    const code = codeFrom(ctx.mailer.last(email)?.text);
    const rows = await ctx.db.kysely.selectFrom('password_pins').select('pin_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.pin_hash).not.toContain(code);
  });

  it('checks the code, resets by it, mails a new password and ends every session', async () => {
    const other = new Client(ctx.app);
    await other.signIn(email);
    await request();
    const code = codeFrom(ctx.mailer.last(email)?.text);
    const ok = await check(code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.success).toBe(true);
    const done = await reset(code);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ result: { success: true, message: 'Новый пароль отправлен на email' } });
    const password = passwordFrom(ctx.mailer.last(email)?.text);
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect((await other.get('/api/menu')).statusCode).toBe(401);
    expect(
      (await new Client(ctx.app).post('/login', { login: email, password: DEFAULT_PASSWORD, remember: false }))
        .statusCode,
    ).toBe(422);
    await new Client(ctx.app).signIn(email, password);
    // one use
    expect((await reset(code)).statusCode).toBe(422);
    expect((await check(code)).statusCode).toBe(422);
  });

  it('a code lives 15 minutes', async () => {
    await request();
    const code = codeFrom(ctx.mailer.last(email)?.text);
    ctx.clock.advance(15 * MINUTE - 1000);
    expect((await check(code)).statusCode).toBe(200);
    ctx.clock.advance(2000);
    const late = await check(code);
    expect(late.statusCode).toBe(422);
    expect(late.json().result.message).toBe('Неверный или устаревший код. Проверьте код или запросите новый.');
  });

  it('a new request replaces the old code', async () => {
    await request();
    const first = codeFrom(ctx.mailer.last(email)?.text);
    ctx.clock.advance(MINUTE);
    await request();
    const second = codeFrom(ctx.mailer.last(email)?.text);
    if (first !== second) expect((await check(first)).statusCode).toBe(422);
    expect((await check(second)).statusCode).toBe(200);
  });

  it('five wrong tries across both calls kill the code', async () => {
    await request();
    const code = codeFrom(ctx.mailer.last(email)?.text);
    for (let i = 0; i < 3; i++) expect((await check(wrong(code))).statusCode).toBe(422);
    expect((await reset(wrong(code))).statusCode).toBe(422);
    const fifth = await check(wrong(code));
    expect(fifth.json().result.message).toBe('Превышено число попыток ввода кода. Запросите новый код.');
    const right = await check(code);
    expect(right.statusCode).toBe(422);
    expect((await reset(code)).statusCode).toBe(422);
  });

  it('parallel guesses cannot exceed five tries of a code', async () => {
    await request();
    const code = codeFrom(ctx.mailer.last(email)?.text);
    const guesses = Array.from({ length: 30 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all([...guesses, code].map((pin) => check(pin)));
    expect(answers.at(-1)?.statusCode).not.toBe(200);
    const pin = await ctx.db.kysely.selectFrom('password_pins').select('failed_attempts').executeTakeFirstOrThrow();
    expect(pin.failed_attempts).toBeLessThanOrEqual(5);
  });

  it('after five wrong codes, a known and an unknown address read the same', async () => {
    await request();
    await request('ghost@example.com');
    const code = codeFrom(ctx.mailer.last(email)?.text);
    const known: string[] = [];
    const unknown: string[] = [];
    for (let i = 0; i < 6; i++) {
      known.push((await check(wrong(code))).json().result.message);
      unknown.push((await check(wrong(code), 'ghost@example.com')).json().result.message);
    }
    expect(unknown).toEqual(known);
    expect(known.at(-1)).toBe('Превышено число попыток ввода кода. Запросите новый код.');
  });

  it('a right code after four wrong ones still resets (check, then reset)', async () => {
    await request();
    const code = codeFrom(ctx.mailer.last(email)?.text);
    for (let i = 0; i < 4; i++) await check(wrong(code));
    expect((await check(code)).statusCode).toBe(200);
    expect((await reset(code)).statusCode).toBe(200);
  });

  it('unknown address and wrong code answer alike', async () => {
    await request();
    const a = await check('123456', 'ghost@example.com');
    const code = codeFrom(ctx.mailer.last(email)?.text);
    const b = await check(wrong(code));
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.json()).toEqual(b.json());
  });

  it('limits requests to one a minute per address', async () => {
    expect((await request()).statusCode).toBe(200);
    const again = await request();
    expect(again.statusCode).toBe(429);
    expect(again.json().result.message).toBe('Код уже отправлен. Повторный запрос возможен через минуту.');
    expect(ctx.mailer.sent).toHaveLength(1);
    ctx.clock.advance(MINUTE);
    expect((await request()).statusCode).toBe(200);
  });

  it('limits requests per IP', async () => {
    for (let i = 0; i < 20; i++) expect((await request(`nobody${i}@example.com`)).statusCode).toBe(200);
    expect((await request('nobody-more@example.com')).statusCode).toBe(429);
  });

  it('rejects a malformed code or address with 422 and changes nothing', async () => {
    await request();
    const res = await check('12ab56');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.pin_code).toEqual(['Код должен состоять из 6 цифр']);
    expect((await client.post('/api/password/recovery-request', { email: 'not-an-address' })).statusCode).toBe(422);
    const pin = await ctx.db.kysely.selectFrom('password_pins').select('failed_attempts').executeTakeFirstOrThrow();
    expect(pin.failed_attempts).toBe(0);
  });
});
