import {
  menuItem as contractMenuItem,
  publicConfigResponse,
  socialLink as contractSocialLink,
  startedLessonsResponse,
  userCoursesHomeResponse,
  ziggyResponse,
} from '@lms/contract';
import { describe, expect, it } from 'vitest';
import { startedLessonsAnswer, userCoursesAnswer } from '../features/home/queries';
import { homeCategories, startedLessons } from '../features/home/fixtures';
import { menuItem, socialLink } from '../features/shell/queries';
import { publicConfigAnswer } from '../shared/config';
import { ziggyAnswer } from '../shared/ziggy';
import { testConfig, testZiggy } from '../test/http';
import type { Schema } from './answer';
import { array, int, nullable, object, oneOf, record, string, union, number } from './shape';

/** The first screens' shapes (lib/shape.ts) against the contract's zod schemas. */
const pairs: [string, Schema<unknown>, Schema<unknown>, unknown][] = [
  ['route table', ziggyAnswer, ziggyResponse, testZiggy],
  ['public config', publicConfigAnswer, publicConfigResponse, testConfig],
  [
    'home courses',
    userCoursesAnswer,
    userCoursesHomeResponse,
    { result: { success: true, categories: homeCategories } },
  ],
  [
    'started lessons',
    startedLessonsAnswer,
    startedLessonsResponse,
    { result: { success: true, items: startedLessons(3) } },
  ],
  ['menu item', menuItem, contractMenuItem, { name: 'Главная', link: '/', icon: 'home', 'icon-active': 'home' }],
  [
    'social link',
    socialLink,
    contractSocialLink,
    { id: 1, name: 'Telegram', link: 'https://t.me/x', icon: 'telegram' },
  ],
];

/** Each field of an object replaced by wrong values, one at a time, down to the leaves. */
function mutations(value: unknown): unknown[] {
  const wrong = [undefined, null, 'x', 1.5, -1, true, [], {}];
  if (Array.isArray(value)) {
    return value.length === 0 ? [] : mutations(value[0]).map((m) => [m, ...value.slice(1)]);
  }
  if (typeof value !== 'object' || value === null) return wrong;
  return Object.entries(value).flatMap(([key, field]) => mutations(field).map((m) => ({ ...value, [key]: m })));
}

describe('answer shapes of the first screens', () => {
  it.each(pairs)(
    '%s: accepts and rejects what the contract does, keeping the same fields',
    (_, shape, schema, valid) => {
      expect(shape.parse({ ...(valid as object), extra: 1 })).toEqual(schema.parse({ ...(valid as object), extra: 1 }));
      for (const bad of mutations(valid)) {
        expect(shape.safeParse(bad).success, JSON.stringify(bad)).toBe(schema.safeParse(bad).success);
      }
    },
  );

  it('parses the basic shapes', () => {
    expect(int.safeParse(1.5).success).toBe(false);
    expect(number.safeParse(Number.NaN).success).toBe(false);
    expect(nullable(string).parse(null)).toBeNull();
    expect(oneOf(['a', 'b']).safeParse('c').success).toBe(false);
    expect(union(number, string).parse('1')).toBe('1');
    expect(record(array(int)).parse({ a: [1, 2] })).toEqual({ a: [1, 2] });
    expect(() => object({ a: int }).parse({ a: '1' })).toThrow('answer.a: an integer expected');
  });
});
