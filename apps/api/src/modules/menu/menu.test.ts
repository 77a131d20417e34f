import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAs, createTestApp, dialectName, type TestContext } from '../../test/harness.js';

describe(`GET /api/menu (${dialectName})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const names = async (role: 'learner' | 'manager' | 'author' | 'admin') => {
    const { client } = await clientAs(ctx, role);
    const res = await client.get('/api/menu');
    expect(res.statusCode).toBe(200);
    return (res.json().items as { name: string; link: string }[]).map((i) => `${i.name} ${i.link}`);
  };

  it('differs by role', async () => {
    expect(await names('learner')).toEqual(['Главная /', 'Мой профиль /profile']);
    expect(await names('manager')).toEqual(['Главная /', 'Аналитика /analytics', 'Мой профиль /profile']);
    expect(await names('author')).toEqual(['Главная /', 'Управление курсами /management', 'Мой профиль /profile']);
    expect(await names('admin')).toEqual([
      'Главная /',
      'Аналитика /analytics',
      'Управление курсами /management',
      'Настройка школы /settings',
      'Мой профиль /profile',
    ]);
  });

  it('each item has name, link, icon and icon-active', async () => {
    const { client } = await clientAs(ctx, 'learner');
    const [home] = (await client.get('/api/menu')).json().items;
    expect(home).toEqual({ name: 'Главная', link: '/', icon: 'home', 'icon-active': 'home-active' });
  });
});
