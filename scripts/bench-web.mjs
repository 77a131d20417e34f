#!/usr/bin/env node
// `npm run bench:web`: how fast the web client reaches its largest contentful paint on a slow device.
//
// Builds what is not built yet, starts the real server (apps/api/dist/server.js) on a temporary
// database with the demo company, and opens the sign-in page and the home page of the demo learner in
// the system Chromium with a cold cache, 4× CPU throttling and a 150 ms / 1.6 Mbit/s network (the
// "slow 4G" profile of Lighthouse). Prints the LCP of each page (median of BENCH_RUNS runs, 5 by
// default) and the gzip size of the JavaScript the home page loads before it is complete.
//
// Environment: BENCH_RUNS (runs per page), CHROMIUM_PATH (default /usr/bin/chromium), BENCH_JSON=1
// prints the figures as JSON as well, WEB_DIST serves another build. `--no-build` measures the build that
// is there.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildIfNeeded, root } from './build.mjs';

const webDist = process.env.WEB_DIST ? resolve(process.env.WEB_DIST) : join(root, 'apps/web/dist');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5);
const LEARNER = { email: 'learner@company.ru', password: 'Demo-2026!' };

/** Lighthouse's mobile profile: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower. */
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const CPU_SLOWDOWN = 4;

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** The built server on a fresh data folder with the demo company loaded. */
async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lms-bench-web-'));
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOGIN_DOMAIN: 'company.ru',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'admin@company.ru',
    ADMIN_PASSWORD: 'Bench-admin-2026',
  };
  const demo = spawnSync(process.execPath, [join(root, 'apps/api/dist/demo/cli.js')], { env, encoding: 'utf8' });
  if (demo.status !== 0) throw new Error(`loading the demo failed:\n${demo.stderr}`);
  const child = spawn(process.execPath, [join(root, 'apps/api/dist/server.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d.toString()));
  child.stderr.on('data', (d) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/api/config`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`the server did not start:\n${output}`);
}

/** Cookies of a signed-in session: the sign-in call as the client makes it (CSRF cookie and header). */
async function signIn(url) {
  const jar = new Map();
  const keep = (response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  keep(await fetch(`${url}/api/check-auth`));
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    },
    body: JSON.stringify({ login: LEARNER.email, password: LEARNER.password, remember: true }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  keep(response);
  return [...jar].map(([name, value]) => ({ name, value, url }));
}

/** Collects LCP candidates from the first moment of the page (buffered entries included). */
function observeLcp() {
  const w = /** @type {typeof globalThis & { __lcp?: unknown[] }} */ (globalThis);
  w.__lcp = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const el = /** @type {LargestContentfulPaint} */ (e).element;
      const label = el ? `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"` : '?';
      w.__lcp?.push({ time: e.startTime, size: /** @type {LargestContentfulPaint} */ (e).size, label });
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

/**
 * One cold load of `path`. The page is complete when `ready` is visible and the network has been quiet
 * for a second (a throttled CPU parses for longer than Playwright's 'networkidle' waits); LCP is read then.
 */
async function measure(browser, url, path, ready, cookies) {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1366, height: 768 } });
  try {
    if (cookies) await context.addCookies(cookies);
    await context.addInitScript(observeLcp);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const transferred = new Map();
    const urls = new Map();
    const pending = new Set();
    const timing = new Map();
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (e) => {
      pending.add(e.requestId);
      timing.set(e.requestId, { start: e.timestamp, url: e.request.url });
      lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, { url: e.response.url, type: e.type }));
    const done = (e) => {
      pending.delete(e.requestId);
      lastActivity = Date.now();
    };
    cdp.on('Network.loadingFinished', (e) => {
      transferred.set(e.requestId, e.encodedDataLength);
      const t = timing.get(e.requestId);
      if (t) t.end = e.timestamp;
      done(e);
    });
    cdp.on('Network.loadingFailed', done);
    await page.goto(`${url}${path}`, { waitUntil: 'load', timeout: 120_000 });
    await page.locator(ready).first().waitFor({ state: 'visible', timeout: 120_000 });
    while (pending.size > 0 || Date.now() - lastActivity < 1000) await page.waitForTimeout(100);
    const entries = await page.evaluate(
      () => /** @type {typeof globalThis & { __lcp?: unknown[] }} */ (globalThis).__lcp ?? [],
    );
    const last = entries.at(-1);
    const finalPath = new URL(page.url()).pathname;
    const scripts = [];
    const bytes = {};
    for (const [id, r] of urls) {
      bytes[r.type] = (bytes[r.type] ?? 0) + (transferred.get(id) ?? 0);
      const p = new URL(r.url).pathname;
      if (p.startsWith('/assets/') && p.endsWith('.js')) scripts.push(p);
    }
    if (process.env.BENCH_TRACE) {
      const t0 = Math.min(...[...timing.values()].map((t) => t.start));
      const ms = (t) => String(Math.round((t - t0) * 1000)).padStart(6);
      for (const [id, t] of timing) {
        const size = kb(transferred.get(id) ?? 0).padStart(9);
        console.log(`  ${ms(t.start)} → ${t.end ? ms(t.end) : '     ?'} ms ${size}  ${new URL(t.url).pathname}`);
      }
      console.log(`  LCP ${Math.round(last?.time ?? NaN)} ms: ${last?.label}`);
    }
    return { lcp: last?.time ?? NaN, element: last?.label ?? '—', finalPath, scripts, bytes };
  } finally {
    await context.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Kilobytes of 1000 bytes, as Vite reports them. */
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
const gzipOf = (path) => gzipSync(readFileSync(join(webDist, path)), { level: 9 }).length;

async function main() {
  if (!process.argv.includes('--no-build')) buildIfNeeded(webDist);
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const cookies = await signIn(server.url);
    const pages = [
      { name: 'sign-in /login', path: '/login', ready: 'form button[type="submit"]', expect: '/login' },
      { name: 'home / (learner)', path: '/', ready: '[data-testid="home-category"]', cookies, expect: '/' },
    ];
    const results = {};
    console.log(
      `\nLCP, cold cache, CPU ${CPU_SLOWDOWN}× slower, ${NETWORK.latency} ms RTT, ` +
        `${(NETWORK.downloadThroughput * 8) / 1e6} Mbit/s down; ${RUNS} runs each` +
        ` (load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} CPUs: other work slows the throttled CPU further)\n`,
    );
    for (const p of pages) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await measure(browser, server.url, p.path, p.ready, p.cookies);
        if (r.finalPath !== p.expect) throw new Error(`${p.path} ended on ${r.finalPath}, expected ${p.expect}`);
        runs.push(r);
      }
      const lcp = median(runs.map((r) => r.lcp));
      const scripts = [...new Set(runs[0].scripts)];
      const jsGzip = scripts.reduce((sum, s) => sum + gzipOf(s), 0);
      results[p.path] = { lcp, runs: runs.map((r) => Math.round(r.lcp)), scripts, jsGzip, bytes: runs[0].bytes };
      console.log(
        `${p.name.padEnd(18)} LCP median ${(lcp / 1000).toFixed(2)} s  runs: ${results[p.path].runs.join(', ')} ms`,
      );
      console.log(`${''.padEnd(18)} LCP element: ${runs.at(-1).element}`);
      const total = Object.values(runs[0].bytes).reduce((a, b) => a + b, 0);
      const byType = Object.entries(runs[0].bytes)
        .sort((a, b) => b[1] - a[1])
        .map(([type, n]) => `${type.toLowerCase()} ${kb(n)}`);
      console.log(`${''.padEnd(18)} JavaScript: ${scripts.length} files, ${kb(jsGzip)} gzip`);
      console.log(`${''.padEnd(18)} transferred: ${kb(total)} (${byType.join(', ')})`);
    }
    const home = results['/'];
    console.log(`\nJavaScript of the home page (gzip -9 of each file):`);
    for (const s of home.scripts.map((s) => [s, gzipOf(s)]).sort((a, b) => b[1] - a[1])) {
      console.log(`  ${kb(s[1]).padStart(9)}  ${s[0]}`);
    }
    if (process.env.BENCH_JSON) console.log(JSON.stringify(results, null, 2));
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
