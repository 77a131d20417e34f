/* Fixtures and set-up of the sign-in tab's component tests (not part of the app bundle). */
import type { AuthUser, SignInEntry, SignInSettings } from '@lms/contract';
import { afterEach } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import AuditPage from './AuditPage';
import SignInPage from './SignInPage';
import { ok, settingsRoutes } from './testing';

export const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const FIREFOX_UA = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

export const signIn = (id: number, more: Partial<SignInEntry> = {}): SignInEntry => ({
  id,
  at: '2026-01-15T09:05:00.000Z',
  user_id: 2,
  name: 'Иванов Иван',
  login: 'ivanov@company.ru',
  method: 'password',
  success: true,
  failure: null,
  ip: '10.0.0.15',
  user_agent: CHROME_UA,
  ...more,
});

/** The newest first: a success, a wrong password, a login that names no one, a directory sign-in. */
export const SIGN_INS: SignInEntry[] = [
  signIn(4, { at: '2026-01-16T07:30:00.000Z' }),
  signIn(3, {
    at: '2026-01-16T07:29:00.000Z',
    success: false,
    failure: 'wrong_password',
    ip: '2001:db8:85a3::8a2e:370:7334',
    user_agent: FIREFOX_UA,
  }),
  signIn(2, {
    user_id: null,
    name: null,
    login: 'nobody@company.ru',
    success: false,
    failure: 'unknown_login',
    user_agent: null,
  }),
  signIn(1, { user_id: 3, name: 'Smith John', login: 'j.smith@company.ru', method: 'ldap', user_agent: 'curl/8.5.0' }),
];

export const NO_SSO: SignInSettings = { sso_only: false, ldap_auth: false, oidc: false };
export const WITH_SSO: SignInSettings = { sso_only: false, ldap_auth: true, oidc: false };

export const settingsAnswer = (data: SignInSettings): MockReply => ok({ result: { success: true }, data });

/** The server's journal: `list` filtered by method, result and search (name or login), one page of it. */
export const signInsAnswer =
  (list: SignInEntry[] = SIGN_INS) =>
  (request: RecordedRequest): MockReply => {
    const params = new URLSearchParams(request.url.split('?')[1] ?? '');
    const page = Number(params.get('page') ?? 1);
    const perPage = Number(params.get('per_page') ?? 50);
    const search = (params.get('search') ?? '').toLowerCase();
    const result = params.get('result');
    const found = list.filter(
      (e) =>
        [null, e.method as string].includes(params.get('method')) &&
        (result === null || (result === 'success') === e.success) &&
        [e.name ?? '', e.login].some((text) => text.toLowerCase().includes(search)),
    );
    const items = found.slice((page - 1) * perPage, page * perPage);
    return ok({ result: { success: true }, items, total: found.length, page, per_page: perPage });
  };

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

interface SetupOptions {
  journal?: Handler;
  settings?: Handler;
  save?: Handler;
  me?: AuthUser;
  /** The address opened ('/settings/sign-in?result=failure'). */
  path?: string;
}

/** Renders the sign-in tab (and the audit tab, to move to) with mocked HTTP. */
function renderSignIn({ journal, settings, save, me, path = '/settings/sign-in' }: SetupOptions = {}) {
  const mock = mockHttp(
    settingsRoutes(
      {
        'GET /api/admin/sign-ins': journal ?? signInsAnswer(),
        'GET /api/admin/sign-in-settings': settings ?? settingsAnswer(NO_SSO),
        ...(save ? { 'PUT /api/admin/sign-in-settings': save } : {}),
      },
      me,
    ),
  );
  const view = renderRoutes(
    [
      { path: '/settings/sign-in', Component: SignInPage },
      { path: '/settings/audit', Component: AuditPage },
    ],
    path,
  );
  /** The query of each journal call, as an object. */
  const journalCalls = () =>
    mock.requests
      .filter((r) => r.url.startsWith('/api/admin/sign-ins'))
      .map((r) => Object.fromEntries(new URLSearchParams(r.url.split('?')[1])));
  const saves = () => mock.requests.filter((r) => r.method === 'PUT' && r.url === '/api/admin/sign-in-settings');
  /** The page's own address after '?', as an object. */
  const address = () => Object.fromEntries(new URLSearchParams(view.router.state.location.search));
  return { ...view, ...mock, journalCalls, saves, address, ue: setupUser() };
}

/** For the top of a test file: `setup` renders the tab; after each test the mock is undone, the toasts cleared. */
export function signInSetup() {
  let restore: () => void = () => {};
  afterEach(() => {
    restore();
    resetToasts();
  });
  return (options?: SetupOptions) => {
    const view = renderSignIn(options);
    restore = view.restore;
    return view;
  };
}
