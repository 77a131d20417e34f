import { describe, expect, it } from 'vitest';
import { random } from '../test/random.js';
import { pgTimeToIso } from './pgTimes.js';

const viaDate = (v: string) => new Date(v).toISOString();
const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('pgTimeToIso', () => {
  it('gives what Date gives for every text form PostgreSQL writes in a UTC session', () => {
    const { int } = random(20261123);
    for (let i = 0; i < 20_000; i++) {
      // (years from 1000: Date reads a year like 0041 as 2041)
      const date = `${pad(1000 + int(9000), 4)}-${pad(1 + int(12), 2)}-${pad(1 + int(28), 2)}`;
      const time = `${pad(int(24), 2)}:${pad(int(60), 2)}:${pad(int(60), 2)}`;
      // PostgreSQL drops trailing zeros of the microseconds, and the point with them.
      const micros = String(int(1_000_000)).padStart(6, '0').replace(/0+$/, '');
      const text = `${date} ${time}${micros ? `.${micros}` : ''}+00`;
      expect(pgTimeToIso(text), text).toBe(viaDate(text));
    }
  });

  it('leaves other offsets and forms to Date', () => {
    for (const text of ['2026-11-23 13:00:00+03', '2026-11-23 15:30:00.25+05:30', '2026-11-23T10:00:00.000Z']) {
      expect(pgTimeToIso(text)).toBe(viaDate(text));
    }
    expect(pgTimeToIso('2026-11-23 10:00:00+00')).toBe('2026-11-23T10:00:00.000Z');
    expect(pgTimeToIso('2026-11-23 10:00:00.5+00')).toBe('2026-11-23T10:00:00.500Z');
    expect(pgTimeToIso('2026-11-23 10:00:00.123999+00')).toBe('2026-11-23T10:00:00.123Z');
  });
});
