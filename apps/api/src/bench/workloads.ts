/**
 * What the load process sends, per workload: autocannon's request list, each request's setup naming
 * its kind (the route) in the connection's context, and the phases (warm-up, measured). Users are
 * picked in a fixed pseudo-random order, the same in every run.
 */
import type { Context, Request } from 'autocannon';
import { examPlan, type ExamFixture } from './examFlow.js';
import { random, searchTerms, type Fixture, type SessionHeaders } from './layout.js';
import type { LoadSpec } from './load.js';
import { mixPlan } from './mix.js';
import { cycle, dynamic, step } from './requests.js';

export const WORKLOADS = [
  'hello',
  'home-cold',
  'home-warm',
  'users-pages',
  'users-search',
  'catalogue-admin',
  'catalogue-admin-in-department',
  'catalogue-author',
  'mix',
  'exam',
] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

export interface Phase {
  seconds?: number;
  /** Requests in all, spread evenly over the connections, instead of a duration. */
  amount?: number;
}

export interface Plan {
  requests: Request[];
  phases: Phase[];
  extra?: () => unknown;
}

/** Learners the warm home view repeats (the first ones after the managers). */
export const WARM_LEARNERS = 1000;
const PER_PAGE = 50;
const SORTS = ['name', 'department', 'last_activity', 'email'] as const;

function timed(spec: LoadSpec): Phase[] {
  return [...(spec.warmupSeconds > 0 ? [{ seconds: spec.warmupSeconds }] : []), { seconds: spec.seconds }];
}

/** The two calls of a learner's home page, by learners picked with `who`. */
function homeView(who: () => SessionHeaders): Request[] {
  // Per connection: the learner whose page this connection is loading.
  const viewer = new WeakMap<Context, SessionHeaders>();
  const pick = (context: Context) => {
    const headers = who();
    viewer.set(context, headers);
    return headers;
  };
  return [
    dynamic((context) => step('GET /api/user/courses', 'GET', '/api/user/courses', pick(context))),
    dynamic((context) =>
      step('GET /api/user/started-lessons', 'GET', '/api/user/started-lessons', viewer.get(context) ?? {}),
    ),
  ];
}

function organisationPlan(name: WorkloadName, f: Fixture, spec: LoadSpec): Plan {
  const phases = timed(spec);
  const learners = f.sessions.slice(f.departments);
  const next = random(11);
  switch (name) {
    case 'home-cold':
      // The paced run starts elsewhere in the list than the saturated one, so that it is cold too.
      return { requests: homeView(cycle(learners, spec.rate ? 3 : 1)), phases };
    case 'home-warm':
      return { requests: homeView(cycle(learners.slice(0, WARM_LEARNERS), 2)), phases };
    case 'users-pages': {
      const pages = Math.ceil(f.employees / PER_PAGE);
      // Mostly the list as it opens (name order), one page in four in another order the admin clicked.
      const path = () => {
        const page = `/api/admin/users?page=${1 + Math.floor(next() * pages)}&per_page=${PER_PAGE}`;
        if (next() < 0.75) return page;
        const sort = SORTS[Math.floor(next() * SORTS.length)] ?? 'name';
        return `${page}&sort=${sort}&direction=${next() < 0.5 ? 'asc' : 'desc'}`;
      };
      return { requests: [dynamic(() => step('GET /api/admin/users?page', 'GET', path(), f.admin))], phases };
    }
    case 'users-search': {
      const term = cycle(searchTerms(f.employees), 3);
      const path = () =>
        `/api/admin/users?page=${next() < 0.8 ? 1 : 2}&per_page=${PER_PAGE}&search=${encodeURIComponent(term())}`;
      return { requests: [dynamic(() => step('GET /api/admin/users?search', 'GET', path(), f.admin))], phases };
    }
    case 'catalogue-admin':
    case 'catalogue-admin-in-department':
    case 'catalogue-author': {
      const who = name === 'catalogue-admin' ? f.admin : name === 'catalogue-author' ? f.author : f.adminInDepartment;
      return { requests: [dynamic(() => step('GET /api/courses', 'GET', '/api/courses', who))], phases };
    }
    case 'mix':
      return { ...mixPlan(f), phases };
    default:
      throw new Error(`${name} is not a workload over the organisation`);
  }
}

export function workload(name: WorkloadName, fixture: unknown, spec: LoadSpec): Plan {
  // A fixed request: the client's own work per request is the least it can be.
  if (name === 'hello') return { requests: [{ method: 'GET', path: '/' }], phases: timed(spec) };
  if (name === 'exam') return examPlan(fixture as ExamFixture, spec.connections);
  return organisationPlan(name, fixture as Fixture, spec);
}
