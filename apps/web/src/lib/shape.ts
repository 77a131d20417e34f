import type { Schema } from './answer';

/**
 * A few checkers of answer shapes for the first screens (route table, public config, home lists,
 * side menu, social links), with the `parse`/`safeParse` of a contract schema. The contract's zod
 * schemas would bring zod and every area's schemas into the first files the browser loads; the
 * other screens, loaded lazily, keep using them. Like zod's objects, an object keeps only the
 * fields it names. `shape.test.ts` checks these shapes against the contract's schemas.
 */
export interface Shape<T> extends Schema<T> {
  check: (value: unknown, path: string) => T;
}

export class ShapeError extends Error {}

function fail(path: string, expected: string): never {
  throw new ShapeError(`${path}: ${expected} expected`);
}

function shape<T>(check: (value: unknown, path: string) => T): Shape<T> {
  return {
    check,
    parse: (data) => check(data, 'answer'),
    safeParse: (data) => {
      try {
        return { success: true, data: check(data, 'answer') };
      } catch (error) {
        if (error instanceof ShapeError) return { success: false };
        throw error;
      }
    },
  };
}

export const string = shape((v, path) => (typeof v === 'string' ? v : fail(path, 'a string')));
export const number = shape((v, path) => (typeof v === 'number' && Number.isFinite(v) ? v : fail(path, 'a number')));
export const int = shape((v, path) =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : fail(path, 'an integer'),
);
export const boolean = shape((v, path) => (typeof v === 'boolean' ? v : fail(path, 'a boolean')));

export function literal<const T extends string | number | boolean>(value: T): Shape<T> {
  return shape((v, path) => (v === value ? value : fail(path, JSON.stringify(value))));
}

export function oneOf<const T extends readonly string[]>(values: T): Shape<T[number]> {
  return shape((v, path) => values.find((value) => value === v) ?? fail(path, values.join(' | ')));
}

export function nullable<T>(inner: Shape<T>): Shape<T | null> {
  return shape((v, path) => (v === null ? null : inner.check(v, path)));
}

export function union<A, B>(a: Shape<A>, b: Shape<B>): Shape<A | B> {
  return shape((v, path) => (a.safeParse(v).success ? a.check(v, path) : b.check(v, path)));
}

export function array<T>(item: Shape<T>): Shape<T[]> {
  return shape((v, path) =>
    Array.isArray(v) ? v.map((entry, i) => item.check(entry, `${path}[${i}]`)) : fail(path, 'an array'),
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function record<T>(value: Shape<T>): Shape<Record<string, T>> {
  return shape((v, path) => {
    if (!isRecord(v)) fail(path, 'an object');
    return Object.fromEntries(Object.entries(v).map(([key, entry]) => [key, value.check(entry, `${path}.${key}`)]));
  });
}

type Fields = Record<string, Shape<unknown>>;
type Of<F extends Fields> = { [K in keyof F]: F[K] extends Shape<infer T> ? T : never };

export function object<F extends Fields>(fields: F): Shape<Of<F>> {
  return shape((v, path) => {
    if (!isRecord(v)) fail(path, 'an object');
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) out[key] = field.check(v[key], `${path}.${key}`);
    return out as Of<F>;
  });
}
