import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '../../test/render';
import { KEY, open, posts, restoreHttp, setup } from './testPageSetup';

const DEADLINE = '2026-03-04T10:10:00.000Z';
const SERVER_START = Date.parse('2026-03-04T10:01:40.000Z');

let serverNow = SERVER_START;

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(KEY, '70');
  serverNow = SERVER_START;
  vi.useFakeTimers();
  // This device's clock is two hours off the server's.
  vi.setSystemTime(new Date('2026-03-04T12:30:00.000Z'));
});
afterEach(() => {
  restoreHttp();
  resetToasts();
  vi.useRealTimers();
});

const flush = async () => {
  for (let i = 0; i < 10; i++) await act(() => vi.advanceTimersByTimeAsync(0));
};
const timer = () => screen.getByTestId('test-timer');
const gets = (requests: { method: string; url: string }[]) =>
  requests.filter((r) => r.method === 'GET' && r.url === '/api/courses/5/tests/23').length;

/**
 * Time passes for the device and the server alike while the page's timers do not run (a hidden tab,
 * a sleeping phone).
 */
function sleep(seconds: number) {
  serverNow += seconds * 1000;
  vi.setSystemTime(Date.now() + seconds * 1000);
}

function render() {
  // elapsed_seconds says 30 s: the countdown must follow the deadline and the server's time instead
  return setup(
    { timer_seconds: 600 },
    {},
    { active_attempts: [{ ...open, elapsed_seconds: 30, expires_at: DEADLINE }] },
    true,
    () => new Date(serverNow).toISOString(),
  );
}

/** Issue 30 item 3: the countdown counts to the server's deadline and catches up when the page comes back. */
describe('countdown to the deadline (issue 30)', () => {
  it("counts to the attempt's deadline by the server's clock, whatever the device's says", async () => {
    render();
    await flush();
    // 10:10:00 − 10:01:40 = 8 min 20 s
    expect(timer()).toHaveTextContent('00:08:20');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(timer()).toHaveTextContent('00:08:15');
  });

  for (const wake of ['visibilitychange', 'focus', 'pageshow'] as const) {
    it(`catches up on '${wake}' after the timers stood still, and asks the server again`, async () => {
      const { requests } = render();
      await flush();
      expect(timer()).toHaveTextContent('00:08:20');
      const loads = gets(requests);
      sleep(200);
      const target = wake === 'visibilitychange' ? document : window;
      await act(async () => {
        target.dispatchEvent(new Event(wake));
      });
      expect(timer()).toHaveTextContent('00:05:00');
      await flush();
      expect(gets(requests)).toBe(loads + 1);
      expect(timer()).toHaveTextContent('00:05:00');
    });
  }

  it('finishes the attempt at once when the deadline passed while the page slept', async () => {
    const { requests } = render();
    await flush();
    sleep(600);
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await flush();
    expect(posts(requests, '/api/test-attempts/finish')).toHaveLength(1);
    expect(screen.getByText('Время теста истекло!')).toBeInTheDocument();
  });
});
