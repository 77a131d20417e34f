import { catalogueResponse, userCoursesHomeResponse } from '@lms/contract';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { responseSerializerCompiler } from './serializer.js';

const compile = (schema: ZodType, compiler = responseSerializerCompiler) =>
  compiler({ schema, method: 'GET', url: '/test', httpStatus: '200' });

const card = {
  id: 7,
  name: 'Охрана труда',
  image: null,
  url: '/courses/7',
  groups: 2,
  students: 40,
  deadline: '2026-12-01T00:00:00.000Z',
  deadline_status: 'almost_overdue',
  lessons: { total: 3, completed: 1 },
  test: { total: 1, completed: 0 },
  progress: 25,
  complete: false,
};

describe('response serializer', () => {
  it('writes what zod writes for the contract, in a JSON-schema serializer', () => {
    const home = { result: { success: true, categories: [{ id: 1, name: 'Обязательное', items: [card] }] } };
    expect(JSON.parse(compile(userCoursesHomeResponse)(home))).toEqual(
      JSON.parse(compile(userCoursesHomeResponse, zodSerializerCompiler)(home)),
    );
    const catalogue = {
      result: {
        success: true,
        items: [
          {
            id: -1,
            name: 'Без категории',
            sort_order: 0,
            items: [{ ...card, description: '', is_published: true, category_id: null }],
          },
        ],
      },
    };
    expect(JSON.parse(compile(catalogueResponse)(catalogue))).toEqual(catalogue);
  });

  it('leaves out every field the schema does not declare, however deep', () => {
    const schema = z.object({
      user: z.object({ id: z.number(), email: z.string(), photo: z.string().nullable() }),
      list: z.array(z.object({ id: z.number() })),
    });
    const written = compile(schema)({
      user: { id: 1, email: 'a@example.com', photo: null, password_hash: '$argon2id$secret' },
      list: [{ id: 2, is_correct: true }],
      extra: 'x',
    });
    expect(written).not.toContain('argon2');
    expect(written).not.toContain('is_correct');
    expect(JSON.parse(written)).toEqual({ user: { id: 1, email: 'a@example.com', photo: null }, list: [{ id: 2 }] });
  });

  it('drops an undeclared field of a nullable object instead of failing', () => {
    const schema = z.object({ next: z.object({ type: z.string(), id: z.number() }).nullable() });
    expect(JSON.parse(compile(schema)({ next: { type: 'lesson', id: 3, extra: true } }))).toEqual({
      next: { type: 'lesson', id: 3 },
    });
    expect(JSON.parse(compile(schema)({ next: null }))).toEqual({ next: null });
  });

  it('refuses an answer that lacks a required field, as zod does', () => {
    const schema = z.object({ result: z.object({ success: z.literal(true), message: z.string() }) });
    expect(() => compile(schema)({ result: { success: true } })).toThrow();
  });

  it('keeps zod for a schema JSON Schema cannot express', () => {
    const schema = z.object({ at: z.date() });
    expect(JSON.parse(compile(schema)({ at: new Date('2026-01-02T03:04:05.000Z') }))).toEqual({
      at: '2026-01-02T03:04:05.000Z',
    });
  });
});
