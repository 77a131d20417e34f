import { describe, expect, it } from 'vitest';
import { createTestApp } from './test/harness.js';

describe('graceful shutdown', () => {
  it('lets an in-flight request finish before the server closes', async () => {
    let entered: () => void = () => {};
    const inHandler = new Promise<void>((r) => (entered = r));
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const ctx = await createTestApp(
      {},
      {
        beforeReady: (app) =>
          app.get('/__slow', { config: { access: 'public' } }, async () => {
            entered();
            await gate;
            return { done: true };
          }),
      },
    );
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');

    const inFlight = fetch(`http://127.0.0.1:${address.port}/__slow`);
    await inHandler;
    let closed = false;
    const closing = ctx.app.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closing;
    expect(closed).toBe(true);
  });
});
