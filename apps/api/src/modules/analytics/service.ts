import {
  ANALYTICS_MESSAGES as M,
  type AnalyticsEmployee,
  type EmployeeCourseDetail,
  type EmployeeDetail,
} from '@lms/contract';
import { can } from '../../platform/access.js';
import { notFound } from '../../platform/errors.js';
import type { PeopleTime } from '../../platform/peopleTime.js';
import type { SessionUser } from '../../platform/sessions.js';
import { storageUrl } from '../../platform/storageUrl.js';
import { fullName } from '../auth/permissions.js';
import type { CatalogueRepository } from '../catalogue/repository.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { DeadlineStatus } from '../progress/engine.js';
import { progressPercent } from '../progress/engine.js';
import { stateKey, type LearningEngine } from '../progress/service.js';
import type { UrgentCourse } from '../progress/urgency.js';
import type { ListedUser, UserRecord, UsersRepository } from '../users/repository.js';
import { employeeCourses, type EmployeeCourse } from './employeeCourses.js';
import { packageResultRows, type PackageResultRow, type PackageResults } from './packageResults.js';
import { inTeam, teamOf } from './team.js';

const GROUPS: readonly DeadlineStatus[] = ['overdue', 'almost_overdue', 'in_order'];
/** What `String#localeCompare` uses without arguments, and the 'ru' one: the same order, reused. */
const BY_DEFAULT_LOCALE = new Intl.Collator();
const BY_RUSSIAN_NAME = new Intl.Collator('ru');
/** Bytes per chunk of the streamed overview: one write per ~1 000 employees, not per employee. */
const CHUNK_BYTES = 256 * 1024;

export interface AttentionEntry {
  user_id: number;
  name: string;
  course_id: number;
  course: string;
  deadline: string;
  status: 'overdue' | 'almost_overdue';
}

/** One group of the digest: how many courses, of how many people, and the most urgent of them. */
export interface AttentionGroup {
  total: number;
  people: number;
  first: AttentionEntry[];
}

export interface TeamAttention {
  overdue: AttentionGroup;
  almost_overdue: AttentionGroup;
}

/** Lines per group in the weekly digest; the rest are counted and are on the analytics screen. */
export const DIGEST_LINES = 50;

/** A person's courses of one deadline in a digest group, before their lines are written out. */
export interface Lead {
  user_id: number;
  name: string;
  deadline: string;
  courses: number;
}

/**
 * The first `size` lines of a digest group: earliest deadline, then name in Russian order, then the
 * person (then the course, when the lines are written). Fed with leads in any order, it keeps in order
 * exactly the leads whose first line is among the first `size`, by insertion into a short sorted list.
 */
export class LeadingLines {
  readonly leads: Lead[] = [];
  #lines = 0;

  constructor(private readonly size: number) {}

  add(lead: Lead): void {
    if (this.size === 0 || lead.courses === 0) return;
    const last = this.leads[this.leads.length - 1];
    // Full, and the lead comes after the last one kept: it would start past the first `size` lines.
    // Most of a big group ties with or follows the last lead kept: one comparison settles it.
    if (last && this.#lines >= this.size && byUrgency(lead, last) >= 0) return;
    let lo = 0;
    let hi = this.leads.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byUrgency(lead, this.leads[mid] as Lead) < 0) hi = mid;
      else lo = mid + 1;
    }
    this.leads.splice(lo, 0, lead);
    this.#lines += lead.courses;
    // The leads pushed to start past the first `size` lines go (the new one too, if it starts there).
    for (let tail = this.leads.at(-1); tail && this.#lines - tail.courses >= this.size; tail = this.leads.at(-1)) {
      this.leads.pop();
      this.#lines -= tail.courses;
    }
  }
}

const byUrgency = (a: Lead, b: Lead) =>
  a.deadline < b.deadline
    ? -1
    : a.deadline > b.deadline
      ? 1
      : BY_RUSSIAN_NAME.compare(a.name, b.name) || a.user_id - b.user_id;

/** dd.mm.yyyy as the analytics screen shows a deadline: the company's calendar day (TIMEZONE). */
export const displayDate = (value: string | null, people: PeopleTime): string => (value ? people.date(value) : '');

/** An employee of the overview and their most urgent course, before they are written out. */
export interface Placed {
  user: ListedUser;
  name: string;
  urgent: UrgentCourse | undefined;
}

/**
 * Analytics (docs/rules.md §Analytics): an admin sees every user, a manager the other users of their
 * department; every figure comes from the learning engine.
 */
export class AnalyticsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly courses: CoursesRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly engine: LearningEngine,
    /** Dates written for people: the deadline strings of the overview. */
    private readonly people: PeopleTime,
    /** SCORM items' results (modules/scorm, handed in by app.ts). */
    private readonly packageResults: PackageResults,
  ) {}

  private async member(viewer: SessionUser, userId: number): Promise<UserRecord> {
    const user = await this.users.find(userId);
    if (!user || !inTeam(teamOf(viewer), user)) throw notFound(M.userNotFound);
    return user;
  }

  /**
   * The weekly digests of a pass: for each viewer, the courses of their team that are overdue or
   * almost overdue, per group how many and of how many people, and the `lines` most urgent (earliest
   * deadline, then name, then person and course), from the same scope as the screen: an admin's team
   * is the company, a manager's the other people of their department. The learning state counts per
   * department (each manager receiving a digest apart, since their own courses are left out of it)
   * and hands over only what may lead a group, so a company-wide digest does not read every overdue
   * course of the company.
   */
  async digests(viewers: readonly SessionUser[], lines = DIGEST_LINES): Promise<Map<number, TeamAttention>> {
    const out = new Map<number, TeamAttention>();
    if (viewers.length === 0) return out;
    const companyWide = (v: SessionUser) => can(v.role, 'settings.manage');
    const managers = viewers.filter((v) => !companyWide(v) && v.department_id !== null);
    const departments = [...new Set(managers.map((m) => m.department_id as number))];
    const { at, counts, leads } = await this.engine.attention(
      { apart: managers.map((m) => m.id), ...(viewers.some(companyWide) ? {} : { departments }) },
      lines,
    );
    const leadsOf = new Map<number, typeof leads>();
    for (const l of leads) {
      const list = leadsOf.get(l.group);
      if (list) list.push(l);
      else leadsOf.set(l.group, [l]);
    }
    const allGroups = [...new Set([...counts.map((c) => c.group), ...leadsOf.keys()])];
    // A team is made of groups: every group, or the department's and those of its other managers apart.
    const groupsOf = (viewer: SessionUser): number[] => {
      if (companyWide(viewer)) return allGroups;
      if (viewer.department_id === null) return [];
      const others = managers.filter((m) => m.department_id === viewer.department_id && m.id !== viewer.id);
      return [viewer.department_id, ...others.map((m) => -m.id)];
    };
    const picked = viewers.map((viewer) => {
      const groups = new Set(groupsOf(viewer));
      const figures = {
        overdue: { total: 0, people: 0, first: new LeadingLines(lines) },
        almost_overdue: { total: 0, people: 0, first: new LeadingLines(lines) },
      };
      const of = (overdue: boolean) => (overdue ? figures.overdue : figures.almost_overdue);
      // Each person is in one group, so the people of a team are the sum of its groups'.
      for (const c of counts)
        if (groups.has(c.group)) {
          of(c.overdue).total += c.total;
          of(c.overdue).people += c.people;
        }
      for (const g of groups)
        for (const l of leadsOf.get(g) ?? [])
          of(l.overdue).first.add({ user_id: l.user_id, name: fullName(l), deadline: l.deadline, courses: l.courses });
      return { viewer, figures };
    });
    const named = new Set<number>();
    for (const { figures } of picked)
      for (const f of [figures.overdue, figures.almost_overdue]) for (const l of f.first.leads) named.add(l.user_id);
    const coursesOf = new Map<string, number[]>();
    for (const c of await this.engine.attentionCourses([...named], at)) {
      const k = `${c.user_id} ${c.deadline}`;
      const list = coursesOf.get(k);
      if (list) list.push(c.course_id);
      else coursesOf.set(k, [c.course_id]);
    }
    const shown = new Set<number>();
    for (const ids of coursesOf.values()) for (const id of ids) shown.add(id);
    const titles = new Map((await this.courses.titles([...shown])).map((c) => [c.id, c.title]));
    const group = (
      f: { total: number; people: number; first: LeadingLines },
      status: AttentionEntry['status'],
    ): AttentionGroup => {
      const first: AttentionEntry[] = [];
      for (const l of f.first.leads)
        for (const courseId of coursesOf.get(`${l.user_id} ${l.deadline}`) ?? []) {
          if (first.length === lines) break;
          first.push({
            user_id: l.user_id,
            name: l.name,
            course_id: courseId,
            course: titles.get(courseId) ?? '',
            deadline: l.deadline,
            status,
          });
        }
      return { total: f.total, people: f.people, first };
    };
    for (const { viewer, figures } of picked)
      out.set(viewer.id, {
        overdue: group(figures.overdue, 'overdue'),
        almost_overdue: group(figures.almost_overdue, 'almost_overdue'),
      });
    return out;
  }

  /**
   * The overview's employees in their groups and in the screen's order: one entry per employee of the
   * team, in the group of their most urgent enrolled course (chosen by the learning state's indexed
   * query, `LearningEngine.mostUrgent`); within a group by deadline as `localeCompare` orders the ISO
   * times (so employees without one come first: '~' sorts before digits there), then by name in
   * Russian order, then in the team's order (the sort is stable).
   */
  private async placed(viewer: SessionUser): Promise<Record<DeadlineStatus, Placed[]>> {
    const groups: Record<DeadlineStatus, Placed[]> = { overdue: [], almost_overdue: [], in_order: [] };
    const scope = teamOf(viewer);
    let team: ListedUser[];
    let urgent: Map<number, UrgentCourse>;
    if (scope.kind === 'company') {
      [team, urgent] = await Promise.all([this.users.roster(), this.engine.mostUrgent('everyone')]);
    } else {
      if (scope.kind === 'nobody') return groups;
      team = (await this.users.roster(scope.departmentId)).filter((u) => u.id !== scope.except);
      urgent = await this.engine.mostUrgent({ userIds: team.map((u) => u.id) });
    }
    for (const user of team) {
      const state = urgent.get(user.id);
      groups[state?.status ?? 'in_order'].push({ user, name: fullName(user), urgent: state });
    }
    const byDeadline = (a: Placed, b: Placed) => {
      const [x, y] = [a.urgent?.deadline ?? '~', b.urgent?.deadline ?? '~'];
      // Equal times are the common case (a department's courses are assigned at once).
      return x === y ? 0 : BY_DEFAULT_LOCALE.compare(x, y);
    };
    for (const list of Object.values(groups))
      list.sort((a, b) => byDeadline(a, b) || BY_RUSSIAN_NAME.compare(a.name, b.name));
    return groups;
  }

  /** The overview's three groups (docs/product.md §Analytics `result.analytic`), as objects (the exports read them). */
  async overview(viewer: SessionUser): Promise<Record<DeadlineStatus, AnalyticsEmployee[]>> {
    const groups = await this.placed(viewer);
    return {
      overdue: groups.overdue.map((p) => employeeOf(p, this.people)),
      almost_overdue: groups.almost_overdue.map((p) => employeeOf(p, this.people)),
      in_order: groups.in_order.map((p) => employeeOf(p, this.people)),
    };
  }

  /**
   * The whole answer of `GET /api/analytics/users` as JSON text in chunks, group by group, in the
   * contract's field order: a company-wide overview (10 000 employees, ~3 MB) is written as it is
   * produced instead of being built as one object, checked against the schema and stringified at once.
   * Everything is read before the first chunk, so a failure is still an ordinary error answer.
   */
  async overviewJson(viewer: SessionUser): Promise<Iterable<Buffer>> {
    const groups = await this.placed(viewer);
    return overviewChunks(groups, this.people);
  }

  /**
   * Each enrolled course of the given employees with its figures, a batch of people at a time
   * (employeeCourses.ts). The ids are those an overview of the viewer gave: scope is decided there.
   */
  enrolledCourses(userIds: readonly number[]): AsyncGenerator<EmployeeCourse[]> {
    return employeeCourses(this.engine, this.courses, userIds);
  }

  /** The SCORM items of these people's enrolled courses with each one's result (the export). */
  packageRows(userIds: readonly number[]): AsyncGenerator<PackageResultRow[]> {
    return packageResultRows(this.enrolledCourses(userIds), this.courses, this.packageResults);
  }

  async employee(viewer: SessionUser, userId: number): Promise<EmployeeDetail> {
    const user = await this.member(viewer, userId);
    const states = [...(await this.engine.summaries([user.id], undefined, { enrolledOnly: true })).values()];
    const [rows, categories] = await Promise.all([
      this.courses.list(states.map((s) => s.course_id)),
      this.catalogue.categories(),
    ]);
    const categoryName = new Map(categories.map((c) => [c.id, c.name]));
    const stateOf = new Map(states.map((s) => [s.course_id, s]));
    const done = states.reduce((n, s) => n + s.items_completed, 0);
    const total = states.reduce((n, s) => n + s.items_total, 0);
    return {
      id: user.id,
      name: fullName(user),
      first_name: user.first_name,
      last_name: user.last_name,
      photo: storageUrl(user.photo_path),
      position: user.position,
      department: user.department_name,
      email: user.email,
      manager:
        user.manager_id === null
          ? null
          : fullName({ first_name: user.manager_first_name ?? '', last_name: user.manager_last_name ?? '' }),
      last_activity: user.last_activity_at,
      total_progress: progressPercent(done, total),
      courses: rows.map((c) => {
        const s = stateOf.get(c.id);
        return {
          id: c.id,
          name: c.title,
          image: storageUrl(c.image_path),
          category_name: c.category_id !== null ? (categoryName.get(c.category_id) ?? null) : null,
          items_completed: s?.items_completed ?? 0,
          items_total: s?.items_total ?? 0,
          progress: s?.progress ?? 0,
          is_expired: s?.deadline_status === 'overdue',
          deadline: s?.deadline ?? null,
        };
      }),
    };
  }

  async course(viewer: SessionUser, courseId: number, userId: number): Promise<EmployeeCourseDetail> {
    const user = await this.member(viewer, userId);
    const state = (await this.engine.states([user.id], [courseId], { enrolledOnly: true })).get(
      stateKey(user.id, courseId),
    );
    const course = await this.courses.detail(courseId);
    if (!state || !course) throw notFound(M.courseNotFound);
    const outline = await this.courses.publishedOutline(courseId);
    const status = new Map(state.items.map((i) => [`${i.type}:${i.id}`, i.status]));
    const packages = outline.flatMap((m) => m.items).filter((i) => i.kind === 'scorm');
    const since = state.cycle > 1 ? state.cycle_start : null;
    const results = await this.packageResults.of(
      user.id,
      packages.map((i) => i.id),
      since,
    );
    return {
      id: course.id,
      name: course.title,
      description: course.description,
      started_at: state.started_at,
      completed_at: state.completed_at,
      deadline: state.deadline,
      items_completed: state.items_completed,
      items_total: state.items_total,
      progress: state.progress,
      modules: outline.map((m) => {
        const items = m.items.map((i) => {
          const recorded = status.get(`${i.type}:${i.id}`) ?? ('not_started' as const);
          if (i.kind !== 'scorm') return { id: i.id, name: i.name, type: i.type, status: recorded };
          // A package that reported failure shows as a failed test does, until it is done.
          const result = results.get(i.id);
          const shown = recorded !== 'completed' && result?.status === 'failed' ? 'failed' : recorded;
          return {
            id: i.id,
            name: i.name,
            type: i.type,
            status: shown,
            kind: 'scorm' as const,
            score: result?.score ?? null,
          };
        });
        return {
          id: m.id,
          name: m.name,
          items_completed: items.filter((i) => i.status === 'completed').length,
          items_total: items.length,
          items,
        };
      }),
    };
  }
}

export function employeeOf({ user, name, urgent }: Placed, people: PeopleTime): AnalyticsEmployee {
  const deadline = displayDate(urgent?.deadline ?? null, people);
  return {
    id: user.id,
    name,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    department: user.department_name,
    photo: storageUrl(user.photo_path),
    deadline,
    deadline_at: urgent?.deadline ?? null,
    percent: urgent?.progress ?? 0,
    last_activity: user.last_activity_at,
    course: urgent ? { id: urgent.course_id, name: urgent.title } : null,
  };
}

const text = JSON.stringify;
const textOrNull = (v: string | null) => (v === null ? 'null' : text(v));

/**
 * `JSON.stringify(employeeOf(placed))` written directly (same fields, order and escaping: each string
 * goes through `JSON.stringify`), without the intermediate object: a company-wide overview writes
 * 10 000 of them per call. The analytics tests compare the two.
 */
export function employeeJson(placed: Placed, people: PeopleTime): string {
  const { user, name, urgent } = placed;
  const deadline = displayDate(urgent?.deadline ?? null, people);
  const course = urgent ? `{"id":${urgent.course_id},"name":${text(urgent.title)}}` : 'null';
  return (
    `{"id":${user.id},"name":${text(name)},"first_name":${text(user.first_name)},` +
    `"last_name":${text(user.last_name)},"email":${text(user.email)},` +
    `"department":${textOrNull(user.department_name)},"photo":${textOrNull(storageUrl(user.photo_path))},` +
    `"deadline":${text(deadline)},"deadline_at":${textOrNull(urgent?.deadline ?? null)},` +
    `"percent":${urgent?.progress ?? 0},"last_activity":${textOrNull(user.last_activity_at)},"course":${course}}`
  );
}

/**
 * The overview as UTF-8 chunks of about CHUNK_BYTES. Each piece of text is encoded straight into the
 * chunk: a string written to the response would be measured (`Buffer.byteLength`) and encoded, each a
 * pass over ~3 MB, and a chunk built by concatenation would be flattened before encoding.
 */
export function* overviewChunks(groups: Record<DeadlineStatus, Placed[]>, people: PeopleTime): Generator<Buffer> {
  const out = new ChunkWriter();
  out.put('{"result":{"success":true,"analytic":{');
  for (const [g, group] of GROUPS.entries()) {
    const list = groups[group];
    out.put(`${g > 0 ? ',' : ''}"${group}":[`);
    for (let i = 0; i < list.length; i++) {
      out.put((i > 0 ? ',' : '') + employeeJson(list[i] as Placed, people));
      const full = out.take();
      if (full) yield full;
    }
    out.put(']');
  }
  out.put('}}}');
  yield* out.rest();
}

/** UTF-8 text encoded into chunks of about CHUNK_BYTES as it is put. */
class ChunkWriter {
  #done: Buffer[] = [];
  #chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  #used = 0;

  put(piece: string): void {
    // At most three bytes per UTF-16 unit.
    if (this.#used + piece.length * 3 > this.#chunk.length) {
      this.#done.push(this.#chunk.subarray(0, this.#used));
      this.#chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, piece.length * 3));
      this.#used = 0;
    }
    this.#used += this.#chunk.write(piece, this.#used);
  }

  /** A filled chunk, if there is one. */
  take(): Buffer | undefined {
    return this.#done.shift();
  }

  *rest(): Generator<Buffer> {
    yield* this.#done;
    this.#done = [];
    if (this.#used > 0) yield this.#chunk.subarray(0, this.#used);
  }
}
