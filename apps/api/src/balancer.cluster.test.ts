import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { departmentsResponse, modulesStructuredResponse, rolesResponse } from '@lms/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSES, MARKER_LOCAL } from './demo/content.js';
import { BalancedClient, Tally } from './test/balancedClient.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, counter, startCluster, stopClusters, type Cluster } from './test/cluster.js';
import { checkAcknowledged, checkMailsOnce } from './test/clusterChecks.js';
import { HAPROXY } from './test/haproxy.js';
import {
  addGroup,
  addLearner,
  emptyAcknowledged,
  firstSignIn,
  mailedPassword,
  signIn,
  studyLessons,
  takeExam,
} from './test/learnerLoad.js';
import { pollUntil } from './test/poll.js';
import { buildServer, root } from './test/spawned.js';

/**
 * Several API processes on one PostgreSQL behind HAProxy (issue 36; README §Several processes): three
 * built servers, the repo's deploy/haproxy.cfg in front, learners working through it while one process
 * is killed. `npm run test:cluster` with TEST_DATABASE_URL set; `.ci/run` installs Debian's haproxy.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const PROCESSES = 3;
const LEARNERS = 36;
/** The process killed mid-load (api2 in the balancer). */
const VICTIM = 1;
const SAFETY = COURSES.find((c) => c.key === 'safety')?.title ?? '';

/** Runs `work` over `items`, `size` at a time. */
async function inPool<T>(items: T[], size: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: size }, worker));
}

describe('several API processes behind HAProxy, on PostgreSQL', () => {
  let cluster: Cluster | undefined;
  const up = (): Cluster => {
    if (!cluster) throw new Error('the cluster did not start');
    return cluster;
  };

  beforeAll(async () => {
    if (!TEST_DATABASE_URL) throw new Error('npm run test:cluster runs on PostgreSQL: set TEST_DATABASE_URL');
    if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: apt-get install haproxy`);
    buildServer();
    cluster = await startCluster(PROCESSES, TEST_DATABASE_URL);
  }, 300_000);
  afterAll(stopClusters, 60_000);

  it("counts one login's failed sign-ins across the processes as one process does", async () => {
    const c = up();
    const tally = new Tally();
    /** Wrong passwords until 429: how many were refused as wrong (422) before the limit. */
    const failuresUntilLimited = async (
      client: BalancedClient,
      login: string,
      headers: Record<string, string> = {},
    ) => {
      await client.get('/api/check-auth');
      for (let failures = 0; failures < 50;) {
        const outcome = await client.send('POST', '/login', { login, password: 'Not-the-password-1' }, headers);
        if ('error' in outcome) throw new Error(`sign-in: ${outcome.error}`);
        if (outcome.answer.status === 429) return failures;
        expect(outcome.answer.status, outcome.answer.body).toBe(422);
        failures++;
      }
      throw new Error('never limited');
    };
    const refusedBy = async () =>
      Promise.all(
        c.urls.map(async (_, i) =>
          counter(await c.metrics(i), 'lms_http_requests_total', { route: '/login', status: '422' }),
        ),
      );
    const before = await refusedBy();
    // From 127.0.0.2: the balancer adds it to X-Forwarded-For, and TRUST_PROXY=1 makes it the client's
    // address. An address the client wrote there itself is not taken (it would escape every limit).
    const balanced = await failuresUntilLimited(
      new BalancedClient(c.balancer.url, '127.0.0.2', tally),
      `${MARKER_LOCAL}@company.ru`,
      { 'x-forwarded-for': '198.51.100.7' },
    );
    const spread = (await refusedBy()).map((n, i) => n - (before[i] ?? 0));
    const alone = await failuresUntilLimited(
      new BalancedClient(c.urls[0] ?? '', '127.0.0.2', tally),
      'author@company.ru',
    );

    expect(alone).toBeGreaterThan(0);
    expect(balanced).toBe(alone);
    // The refusals came from more than one process: the counter they share is the database's.
    expect(spread.filter((n) => n > 0).length, `422s per process: ${spread.join(', ')}`).toBeGreaterThan(1);
    const journal = await c.db.kysely
      .selectFrom('sign_ins')
      .select(['ip'])
      .where('login', '=', `${MARKER_LOCAL}@company.ru`)
      .where('success', '=', false)
      .execute();
    expect(journal.map((r) => r.ip)).toEqual(Array<string>(journal.length).fill('127.0.0.2'));

    // The balancer's request id (it replaces one the client sent) is the process's: in both logs.
    const outcome = await new BalancedClient(c.balancer.url, '127.0.0.2', tally).send('GET', '/api/config', undefined, {
      'x-request-id': 'chosen-by-the-client',
    });
    const id = 'answer' in outcome ? outcome.answer.headers['x-request-id'] : undefined;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    await pollUntil(
      "the request id in the balancer's log",
      () => c.balancer.output().includes(` ${String(id)}`),
      10_000,
      c.output,
    );
    const serverLogs = c.processes.map((p) => p.output()).join('\n');
    expect(serverLogs).toContain(`"reqId":"${String(id)}"`);
  }, 60_000);

  it('loses no acknowledged write, answers every request and sends each mail once while a process is killed mid-load', async () => {
    const c = up();
    const tally = new Tally();
    const acknowledged = emptyAcknowledged();
    const admin = new BalancedClient(c.balancer.url, '127.0.0.3', tally);
    await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    const course = await c.db.kysely
      .selectFrom('courses')
      .select('id')
      .where('title', '=', SAFETY)
      .executeTakeFirstOrThrow();
    const courseId = course.id;
    const outline = BalancedClient.json(
      await admin.get(`/api/courses/${courseId}/modules-structured`),
      modulesStructuredResponse,
    );
    const testId = outline.result.modules.flatMap((m) => m.lessonsList).find((i) => i.type === 'test')?.id ?? 0;
    const roleId =
      BalancedClient.json(await admin.get('/api/admin/roles'), rolesResponse).result.items.find(
        (r) => r.code === 'learner',
      )?.id ?? 0;
    const departmentId =
      BalancedClient.json(await admin.get('/api/admin/departments'), departmentsResponse).result.items[0]?.id ?? 0;
    // A deadline a day after enrolment with a day's warning: every learner added now is due a reminder.
    await admin.write(
      'PUT',
      `/api/courses/${courseId}`,
      { deadline_value: 1, deadline_warning_days: 1 },
      { idempotent: true },
    );

    // Learners added by the administrator; each signs in with the mailed password, sets their own, studies.
    const learners: { id: number; email: string; client: BalancedClient }[] = [];
    await inPool(
      Array.from({ length: LEARNERS }, (_, i) => i),
      4,
      async (i) => {
        const email = `cluster.learner${i + 1}@company.ru`;
        const id = await addLearner(
          admin,
          { email, firstName: 'Ученик', lastName: `Кластерный ${i + 1}`, departmentId, roleId, courseId },
          acknowledged,
        );
        learners[i] = { id, email, client: new BalancedClient(c.balancer.url, `127.0.1.${i + 1}`, tally) };
      },
    );
    await inPool(learners, 8, async (l) => {
      const mailed = await mailedPassword(c.smtp, l.email, c.output);
      await firstSignIn(l.client, { id: l.id, email: l.email, mailed, own: `Own-password-${l.id}-x` }, acknowledged);
      await studyLessons(l.client, { id: l.id, courseId, count: 2 }, acknowledged);
    });

    // Every process runs the reminder pass (30 s after start, then every minute): the reminders due
    // are claimed and mailed before the kill, so that no mail is left under a dead process's lease.
    const claims = async () => {
      const count = async (table: 'reminder_deliveries' | 'digest_deliveries' | 'mail_log') => {
        let q = c.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n'));
        if (table === 'mail_log') q = q.where('status', '=', 'queued');
        return Number((await q.executeTakeFirstOrThrow()).n);
      };
      return {
        reminders: await count('reminder_deliveries'),
        digests: await count('digest_deliveries'),
        queued: await count('mail_log'),
      };
    };
    const beforeKill = await pollUntil(
      "every learner's reminder claimed once by one of the three processes, and mailed",
      async () => {
        const mine = await c.db.kysely
          .selectFrom('reminder_deliveries')
          .select('user_id')
          .where('course_id', '=', courseId)
          .where(
            'user_id',
            'in',
            learners.map((l) => l.id),
          )
          .execute();
        const now = await claims();
        const metrics = await Promise.all(c.urls.map((_, i) => c.metrics(i)));
        const passes = metrics.map((m) => counter(m, 'lms_reminder_passes_total', { outcome: 'ok' }));
        const claimed = (kind: string) =>
          metrics.reduce((sum, m) => sum + counter(m, 'lms_reminder_mails_total', { kind }), 0);
        const done =
          mine.length === LEARNERS &&
          now.queued === 0 &&
          passes.every((n) => n > 0) &&
          claimed('reminder') === now.reminders &&
          claimed('digest') === now.digests;
        return done && { ...now, passes, metrics };
      },
      180_000,
      c.output,
    );

    // The exam spike: every learner starts the same test at once, answers and finishes; the
    // administrator adds study groups meanwhile. After LEARNERS acknowledged answers, api2 is killed.
    const victim = c.processes[VICTIM];
    let answers = 0;
    let sentAtKill = -1;
    const kill = () => {
      if (++answers !== LEARNERS || !victim) return;
      sentAtKill = tally.sent;
      victim.proc.kill('SIGKILL');
    };
    let examOver = false;
    const groups = (async () => {
      for (let n = 1; !examOver && n <= 60; n++) {
        const members = [learners[n % LEARNERS]?.id ?? 0, learners[(n + 1) % LEARNERS]?.id ?? 0];
        await addGroup(admin, { name: `Экзаменационная группа ${n}`, userIds: members }, acknowledged);
      }
    })();
    await Promise.all(
      learners.map((l) => takeExam(l.client, { id: l.id, courseId, testId }, acknowledged, kill)),
    ).finally(() => (examOver = true));
    await groups;

    expect(sentAtKill, 'the kill came in the middle of the load').toBeGreaterThan(0);
    expect(tally.sent - sentAtKill, 'requests after the kill').toBeGreaterThan(LEARNERS);
    expect(acknowledged.finished).toHaveLength(LEARNERS);
    // Every request was answered by a process, or got no verdict and was then repeated (being safe to
    // repeat) or read back; a request that got neither would have failed its learner above.
    expect(tally.answered + tally.noVerdict.length).toBe(tally.sent);
    expect(tally.repeated + tally.foundApplied).toBe(tally.noVerdict.length);
    // HAProxy's log: `…/+1` in the retries field is a request it sent again to another process.
    const redispatched = c.balancer
      .output()
      .split('\n')
      .filter((line) => / \d+\/\d+\/\d+\/\d+\/\+\d+ /.test(line));
    process.stdout.write(
      `cluster: ${tally.sent} requests, ${tally.noVerdict.length} without a verdict (${tally.noVerdict.join('; ')}), ` +
        `${tally.repeated} repeated, ${tally.readBack} read back (${tally.foundApplied} found applied); ` +
        `${redispatched.length} redispatched by the balancer\n`,
    );

    // The balancer took the killed process out through its health check.
    const down = await pollUntil(
      'the killed process DOWN in the balancer',
      async () => (await c.balancer.servers()).find((s) => s.name === `api${VICTIM + 1}` && s.status === 'DOWN'),
      30_000,
      c.output,
    );
    expect(down.check).toMatch(/^L4/);

    await checkAcknowledged(c, acknowledged, { courseId, testId, learners: learners.map((l) => l.id) });

    // The two left go on with their reminder passes; nothing is claimed or mailed twice.
    const survivors = c.urls.map((_, i) => i).filter((i) => i !== VICTIM);
    await pollUntil(
      'a reminder pass of each remaining process after the kill',
      async () => {
        const passes = await Promise.all(
          survivors.map(async (i) => counter(await c.metrics(i), 'lms_reminder_passes_total', { outcome: 'ok' })),
        );
        return passes.every((n, k) => n > (beforeKill.passes[survivors[k] ?? 0] ?? 0));
      },
      150_000,
      c.output,
    );
    const after = await claims();
    expect(after).toEqual({ reminders: beforeKill.reminders, digests: beforeKill.digests, queued: 0 });
    await checkMailsOnce(c);

    // Started again on its address, the process is back in the rotation after `rise` good checks.
    await c.restart(VICTIM);
    await pollUntil(
      'the restarted process UP and answering through the balancer',
      async () => {
        await admin.get('/api/check-auth');
        const up = (await c.balancer.servers()).find((s) => s.name === `api${VICTIM + 1}`)?.status === 'UP';
        return up && counter(await c.metrics(VICTIM), 'lms_http_requests_total', { route: '/api/check-auth' }) > 0;
      },
      60_000,
      c.output,
    );
    for (const l of learners) l.client.close();
    admin.close();
  }, 600_000);
});

/** nginx is not installed by CI; where it is (`apt-get install nginx`), the file is checked by `nginx -t`. */
describe.skipIf(!existsSync('/usr/sbin/nginx'))('deploy/nginx.conf', () => {
  it('is a configuration nginx accepts, as the http block of a main file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-nginx-'));
    try {
      const main = join(dir, 'nginx.conf');
      writeFileSync(
        main,
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  include ${join(root, 'deploy/nginx.conf')};\n}\n`,
      );
      const check = spawnSync('/usr/sbin/nginx', ['-t', '-c', main, '-p', dir], { encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
