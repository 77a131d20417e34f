import type { RoleCode } from '@lms/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, type Access } from './platform/access.js';
import { MINUTE } from './platform/clock.js';
import { MESSAGES } from './platform/errors.js';
import { Client, clientAs, createTestApp, dialectName, type TestContext } from './test/harness.js';

/**
 * 'mailed': an admin whose password an administrator mailed (issue 30): every route but the public
 * ones and the own-password call answers 403 until they set their own, whatever the role allows.
 */
type Who = 'anonymous' | RoleCode | 'mailed';
const WHO: Who[] = ['anonymous', 'learner', 'manager', 'author', 'admin', 'mailed'];

interface Rule {
  access: Access;
  /** Status for a caller the rule admits (the request below is sent as is). */
  ok: number;
  /** Concrete path when the route has parameters or wildcards. */
  path?: string;
  body?: Record<string, unknown>;
  /** Open to a user whose password an administrator mailed (the call that sets their own). */
  beforeOwnPassword?: true;
}

/**
 * The declared access of every route the server registers. A new route must be added here,
 * otherwise this suite fails: that is the point.
 */
const RULES: Record<string, Rule> = {
  'GET /api/check-auth': { access: 'public', ok: 200 },
  'POST /login': { access: 'public', ok: 422, body: { login: 'nobody@example.com', password: 'wrong-one' } },
  'POST /api/logout': { access: 'public', ok: 200 },
  // The corporate sign-in's two steps answer with redirects only (here: not configured, to /login).
  'GET /api/auth/oidc/start': { access: 'public', ok: 302 },
  'GET /api/auth/oidc/callback': { access: 'public', ok: 302 },
  'POST /api/password/recovery-request': { access: 'public', ok: 422, body: { email: 'x' } },
  'POST /api/password/check-pin': { access: 'public', ok: 422, body: { email: 'a@example.com', pin_code: 'x' } },
  'POST /api/password/reset-by-pin': { access: 'public', ok: 422, body: { email: 'a@example.com', pin_code: 'x' } },
  'GET /api/admin/users': { access: 'settings.manage', ok: 200 },
  'POST /api/admin/users': { access: 'settings.manage', ok: 422 },
  'GET /api/admin/users/export': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/users/:id': { access: 'settings.manage', ok: 404, path: '/api/admin/users/999999' },
  'PUT /api/admin/users/:id': { access: 'settings.manage', ok: 422, path: '/api/admin/users/999999' },
  'DELETE /api/admin/users/:id': { access: 'settings.manage', ok: 404, path: '/api/admin/users/999999' },
  'POST /api/admin/users/:id/reset-password': {
    access: 'settings.manage',
    ok: 404,
    path: '/api/admin/users/999999/reset-password',
  },
  'GET /api/admin/users/:id/courses': { access: 'settings.manage', ok: 404, path: '/api/admin/users/999999/courses' },
  'POST /api/admin/user-courses/attach': { access: 'settings.manage', ok: 422 },
  'POST /api/admin/user-courses/detach': { access: 'settings.manage', ok: 422 },
  'GET /api/admin/roles': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/departments': { access: 'settings.manage', ok: 200 },
  'POST /api/admin/departments': { access: 'settings.manage', ok: 422 },
  'PUT /api/admin/departments/:id': { access: 'settings.manage', ok: 422, path: '/api/admin/departments/999999' },
  'DELETE /api/admin/departments/:id': { access: 'settings.manage', ok: 404, path: '/api/admin/departments/999999' },
  'GET /api/admin/departments/:id/courses': {
    access: 'settings.manage',
    ok: 404,
    path: '/api/admin/departments/999999/courses',
  },
  'GET /api/study-groups': { access: 'settings.manage', ok: 200 },
  'POST /api/study-groups': { access: 'settings.manage', ok: 422 },
  'PUT /api/study-groups/:id': { access: 'settings.manage', ok: 422, path: '/api/study-groups/999999' },
  'DELETE /api/study-groups/:id': { access: 'settings.manage', ok: 404, path: '/api/study-groups/999999' },
  'GET /api/study-groups/:id/courses': { access: 'settings.manage', ok: 404, path: '/api/study-groups/999999/courses' },
  'GET /api/courses': { access: 'catalogue.manage', ok: 200 },
  'POST /api/courses': { access: 'catalogue.manage', ok: 422, body: { name: '' } },
  'POST /api/courses/categories': { access: 'catalogue.manage', ok: 422, body: { name: '' } },
  'POST /api/courses/categories/update': { access: 'catalogue.manage', ok: 422 },
  'PUT /api/courses/categories/:id': {
    access: 'catalogue.manage',
    ok: 404,
    path: '/api/courses/categories/999999',
    body: { name: 'X' },
  },
  'DELETE /api/courses/categories/:id': { access: 'catalogue.manage', ok: 404, path: '/api/courses/categories/999999' },
  'GET /api/courses/:courseId': { access: 'constructor.manage', ok: 404, path: '/api/courses/999999' },
  'PUT /api/courses/:courseId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999',
    body: { title: 'X' },
  },
  'DELETE /api/admin/courses/:courseId': { access: 'constructor.manage', ok: 404, path: '/api/admin/courses/999999' },
  'POST /api/courses/:courseId/publish': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/publish',
    body: { is_published: true },
  },
  'POST /api/courses/:courseId/image': { access: 'constructor.manage', ok: 404, path: '/api/courses/999999/image' },
  'GET /api/courses/:courseId/modules': { access: 'constructor.manage', ok: 404, path: '/api/courses/999999/modules' },
  'POST /api/courses/modules': { access: 'constructor.manage', ok: 404, body: { name: 'М', course_id: 999999 } },
  'PUT /api/courses/:courseId/modules/sort': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/modules/sort',
    body: { modules: [{ id: 1, sort_order: 0 }] },
  },
  'PUT /api/courses/:courseId/modules/:moduleId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/modules/1',
    body: { name: 'М' },
  },
  'DELETE /api/courses/:courseId/modules/:moduleId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/modules/1',
  },
  'PUT /api/courses/:courseId/modules/:moduleId/items/sort': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/modules/1/items/sort',
    body: { items: [{ id: 1, type: 'lesson', sort_order: 0 }] },
  },
  'POST /api/courses/lessons': { access: 'constructor.manage', ok: 404, body: { module_id: 999999 } },
  'DELETE /api/courses/lessons/:id': { access: 'constructor.manage', ok: 404, path: '/api/courses/lessons/999999' },
  'GET /api/courses/:courseId/lessons/:lessonId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/lessons/1',
  },
  'PUT /api/courses/:courseId/lessons/:lessonId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/lessons/1',
    body: { name: 'У' },
  },
  'PUT /api/courses/:courseId/lessons/:lessonId/contents': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/lessons/1/contents',
    body: { contents: [] },
  },
  'POST /api/courses/tests': { access: 'constructor.manage', ok: 404, body: { course_id: 999999, module_id: 1 } },
  'PUT /api/courses/:courseId/tests/:testId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/tests/1',
    body: { name: 'Т' },
  },
  'DELETE /api/courses/tests/:id': { access: 'constructor.manage', ok: 404, path: '/api/courses/tests/999999' },
  'GET /api/admin/tests/:testId/questions': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/admin/tests/999999/questions',
  },
  'GET /api/admin/tests/:testId/statistics': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/admin/tests/999999/statistics',
  },
  'POST /api/admin/tests/:testId/questions': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/admin/tests/999999/questions',
  },
  'GET /api/courses/:courseId/assignment': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment',
  },
  'GET /api/courses/:courseId/assignment/candidates': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment/candidates',
  },
  'POST /api/courses/:courseId/assignment/departments': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment/departments',
    body: { department_ids: [1] },
  },
  'DELETE /api/courses/:courseId/assignment/departments/:departmentId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment/departments/1',
  },
  'POST /api/courses/:courseId/assignment/groups': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment/groups',
    body: { group_ids: [1] },
  },
  'DELETE /api/courses/:courseId/assignment/groups/:groupId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment/groups/1',
  },
  'POST /api/courses/:courseId/assignment/users': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment/users',
    body: { user_ids: [1] },
  },
  'DELETE /api/courses/:courseId/assignment/users/:userId': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/assignment/users/1',
  },
  'POST /api/upload-image': { access: 'constructor.manage', ok: 422 },
  'POST /api/upload-file': { access: 'constructor.manage', ok: 422 },
  'GET /api/courses/:courseId/modules-structured': {
    access: 'authenticated',
    ok: 404,
    path: '/api/courses/999999/modules-structured',
  },
  'GET /api/admin/courses/:courseId': { access: 'authenticated', ok: 404, path: '/api/admin/courses/999999' },
  'GET /api/courses/:courseId/lessons/:lessonId/contents': {
    access: 'authenticated',
    ok: 404,
    path: '/api/courses/999999/lessons/1/contents',
  },
  'GET /api/courses/:courseId/lessons/:lessonId/scorm': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/lessons/1/scorm',
  },
  // Not a multipart request: refused before anything is read.
  'POST /api/courses/:courseId/lessons/:lessonId/scorm': {
    access: 'constructor.manage',
    ok: 422,
    path: '/api/courses/999999/lessons/1/scorm',
  },
  'GET /api/courses/:courseId/lessons/:lessonId/scorm/state': {
    access: 'authenticated',
    ok: 404,
    path: '/api/courses/999999/lessons/1/scorm/state',
  },
  'POST /api/courses/:courseId/lessons/:lessonId/scorm/launch': {
    access: 'authenticated',
    ok: 404,
    path: '/api/courses/999999/lessons/1/scorm/launch',
    body: {},
  },
  // A package's content and commits: authorised by the launch's signed address, never the session.
  'GET /scorm-content/:token/lms/runtime.js': {
    access: 'public',
    ok: 404,
    path: '/scorm-content/1.1.1.x/lms/runtime.js',
  },
  'POST /scorm-content/:token/lms/commit': { access: 'public', ok: 404, path: '/scorm-content/1.1.1.x/lms/commit' },
  'GET /scorm-content/:token/pkg/*': { access: 'public', ok: 404, path: '/scorm-content/1.1.1.x/pkg/index.html' },
  'POST /api/lessons/:lessonId/start': { access: 'authenticated', ok: 404, path: '/api/lessons/999999/start' },
  'POST /api/lessons/:lessonId/complete': { access: 'authenticated', ok: 404, path: '/api/lessons/999999/complete' },
  'GET /api/courses/:courseId/tests/:testId': { access: 'authenticated', ok: 404, path: '/api/courses/999999/tests/1' },
  'POST /api/test-attempts/start': { access: 'authenticated', ok: 404, body: { course_test_id: 999999 } },
  'POST /api/test-attempts/save-answers': {
    access: 'authenticated',
    ok: 404,
    body: { attempt_id: 999999, answers: [{ test_question_id: 1, answer: [1] }] },
  },
  'POST /api/test-attempts/finish': { access: 'authenticated', ok: 404, body: { attempt_id: 999999 } },
  'GET /api/courses/:courseId/tests/:testId/:attemptId/result': {
    access: 'authenticated',
    ok: 404,
    path: '/api/courses/999999/tests/1/1/result',
  },
  'GET /api/profile': { access: 'authenticated', ok: 200 },
  'POST /api/profile/change-password': {
    access: 'authenticated',
    ok: 422,
    body: { old_password: 'x', new_password: 'y', new_password_confirmation: 'z' },
  },
  'POST /api/profile/set-password': {
    access: 'authenticated',
    ok: 422,
    body: { new_password: 'x', new_password_confirmation: 'y' },
    beforeOwnPassword: true,
  },
  'PUT /api/profile/preferences': { access: 'authenticated', ok: 422, body: { reminder_mails: 'нет' } },
  'GET /api/admin/mail-log': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/audit': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/audit/export': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/sign-ins': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/sign-in-settings': { access: 'settings.manage', ok: 200 },
  'PUT /api/admin/sign-in-settings': { access: 'settings.manage', ok: 422, body: { sso_only: true } },
  'GET /api/admin/people-import/template': { access: 'settings.manage', ok: 200 },
  'POST /api/admin/people-import': { access: 'settings.manage', ok: 422 },
  'GET /api/admin/people-import/:id': { access: 'settings.manage', ok: 404, path: '/api/admin/people-import/999999' },
  'GET /api/admin/people-import/:id/rows': {
    access: 'settings.manage',
    ok: 404,
    path: '/api/admin/people-import/999999/rows',
  },
  'POST /api/admin/people-import/:id/apply': {
    access: 'settings.manage',
    ok: 404,
    path: '/api/admin/people-import/999999/apply',
  },
  // No directory is set up in this suite: the status says so and the dry run is refused with 422.
  'GET /api/admin/directory-sync': { access: 'settings.manage', ok: 200 },
  'POST /api/admin/directory-sync': { access: 'settings.manage', ok: 422 },
  'POST /api/admin/mail-log/:id/resend': {
    access: 'settings.manage',
    ok: 404,
    path: '/api/admin/mail-log/999999/resend',
  },
  'GET /api/analytics/users': { access: 'analytics.view', ok: 200 },
  'GET /api/analytics/export': { access: 'analytics.view', ok: 200 },
  'GET /api/analytics/export/courses': { access: 'analytics.view', ok: 200 },
  'GET /api/analytics/export/scorm': { access: 'analytics.view', ok: 200 },
  'GET /api/courses/:courseId/certificate': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/certificate',
  },
  'PUT /api/courses/:courseId/certificate': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/certificate',
    body: { enabled: true, title: 'Сертификат' },
  },
  'POST /api/courses/:courseId/certificate/logo': {
    access: 'constructor.manage',
    ok: 404,
    path: '/api/courses/999999/certificate/logo',
  },
  'GET /api/my/certificates': { access: 'authenticated', ok: 200 },
  'GET /api/analytics/users/:id/certificates': {
    access: 'analytics.view',
    ok: 404,
    path: '/api/analytics/users/999999/certificates',
  },
  'GET /api/admin/certificates': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/certificates/export': { access: 'settings.manage', ok: 200 },
  'GET /api/admin/certificates/archive': { access: 'settings.manage', ok: 422 },
  'POST /api/admin/certificates/:number/revoke': {
    access: 'settings.manage',
    ok: 404,
    path: '/api/admin/certificates/C-2222-2222-2222/revoke',
    body: { reason: 'Ошибка' },
  },
  'GET /api/certificates/:number/pdf': {
    access: 'authenticated',
    ok: 404,
    path: '/api/certificates/C-2222-2222-2222/pdf',
  },
  'GET /api/certificates/verify/:number': {
    access: 'public',
    ok: 404,
    path: '/api/certificates/verify/C-2222-2222-2222',
  },
  'GET /api/analytics/users/:id': { access: 'analytics.view', ok: 404, path: '/api/analytics/users/999999' },
  'GET /api/analytics/courses/:courseId/user/:userId': {
    access: 'analytics.view',
    ok: 404,
    path: '/api/analytics/courses/1/user/999999',
  },
  'GET /api/user/courses': { access: 'authenticated', ok: 200 },
  'GET /api/user/started-lessons': { access: 'authenticated', ok: 200 },
  'GET /storage/*': { access: 'authenticated', ok: 404, path: '/storage/none.png' },
  'GET /api/menu': { access: 'authenticated', ok: 200 },
  'GET /ziggy': { access: 'public', ok: 200 },
  'GET /api/config': { access: 'public', ok: 200 },
  // For balancers and Prometheus (platform/health.ts, platform/metricsEndpoint.ts): no session. /metrics
  // is off on the main port without METRICS_TOKEN.
  'GET /healthz': { access: 'public', ok: 200 },
  'GET /readyz': { access: 'public', ok: 200 },
  'GET /metrics': { access: 'public', ok: 404 },
  'GET /storage/json/social.links.json': { access: 'public', ok: 200 },
  'GET /docs': { access: 'public', ok: 200 },
  'GET /docs/': { access: 'public', ok: 200 },
  'GET /docs/json': { access: 'public', ok: 200 },
  'GET /docs/yaml': { access: 'public', ok: 200 },
  'GET /docs/static/*': { access: 'public', ok: 200, path: '/docs/static/swagger-ui.css' },
  'GET /docs/static/index.html': { access: 'public', ok: 302 },
  'GET /docs/static/swagger-initializer.js': { access: 'public', ok: 200 },
};

function expected(rule: Rule, who: Who): number {
  if (rule.access === 'public') return rule.ok;
  if (who === 'anonymous') return 401;
  if (who === 'mailed') return rule.beforeOwnPassword ? rule.ok : 403;
  if (rule.access === 'authenticated') return rule.ok;
  return can(who, rule.access) ? rule.ok : 403;
}

describe(`access matrix (${dialectName})`, () => {
  let ctx: TestContext;
  const clients = new Map<Who, Client>();

  beforeAll(async () => {
    ctx = await createTestApp();
    clients.set('anonymous', new Client(ctx.app));
    for (const role of ['learner', 'manager', 'author', 'admin'] as const) {
      clients.set(role, (await clientAs(ctx, role)).client);
    }
    const mailed = await clientAs(ctx, 'admin');
    await ctx.db.kysely
      .updateTable('users')
      .set({ must_change_password: true })
      .where('id', '=', mailed.user.id)
      .execute();
    clients.set('mailed', mailed.client);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('every registered route has a rule here that matches the one it declares', () => {
    const routes = ctx.app.registeredRoutes.filter((r) => r.method !== 'HEAD');
    const missing = routes.map((r) => `${r.method} ${r.url}`).filter((k) => !RULES[k]);
    expect(missing).toEqual([]);
    for (const r of routes) {
      expect([`${r.method} ${r.url}`, r.access]).toEqual([
        `${r.method} ${r.url}`,
        RULES[`${r.method} ${r.url}`]?.access,
      ]);
    }
  });

  it('every route answers each role as its rule says', async () => {
    const failures: string[] = [];
    const routes = ctx.app.registeredRoutes.filter((r) => r.method !== 'HEAD');
    for (const route of routes) {
      const rule = RULES[`${route.method} ${route.url}`];
      if (!rule) continue;
      // Sign-out would end the shared sessions; it is checked last, per role.
      if (route.url === '/api/logout') continue;
      for (const who of WHO) {
        const client = clients.get(who);
        if (!client) throw new Error(who);
        const res = await client.request(route.method as 'GET', rule.path ?? route.url, rule.body);
        // Six callers' failed sign-ins with one login would meet the limit of five a minute.
        if (route.url === '/login') ctx.clock.advance(MINUTE);
        const want = expected(rule, who);
        if (res.statusCode !== want)
          failures.push(`${route.method} ${route.url} as ${who}: ${res.statusCode}, expected ${want}`);
        else if (who === 'mailed' && want === 403 && res.json().result?.message !== MESSAGES.ownPasswordFirst)
          failures.push(`${route.method} ${route.url} as ${who}: ${res.body}`);
      }
    }
    for (const who of WHO) {
      const res = await clients.get(who)?.post('/api/logout');
      if (res?.statusCode !== 200) failures.push(`POST /api/logout as ${who}: ${res?.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
