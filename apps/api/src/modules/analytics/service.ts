import {
  ANALYTICS_MESSAGES as M,
  type AnalyticsEmployee,
  type EmployeeCourseDetail,
  type EmployeeDetail,
} from '@lms/contract';
import { can } from '../../platform/access.js';
import { notFound } from '../../platform/errors.js';
import type { SessionUser } from '../../platform/sessions.js';
import { storageUrl } from '../../platform/storageUrl.js';
import { fullName } from '../auth/permissions.js';
import type { CatalogueRepository } from '../catalogue/repository.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { CourseSummary, DeadlineStatus } from '../progress/engine.js';
import { progressPercent } from '../progress/engine.js';
import { stateKey, type LearningEngine } from '../progress/service.js';
import type { UserRecord, UsersRepository } from '../users/repository.js';

const URGENCY: Record<DeadlineStatus, number> = { overdue: 0, almost_overdue: 1, in_order: 2 };

export interface AttentionEntry {
  user_id: number;
  name: string;
  course_id: number;
  course: string;
  deadline: string;
  status: 'overdue' | 'almost_overdue';
}

/** dd.mm.yyyy as the analytics screen shows a deadline. */
const DATE = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
export const displayDate = (value: string | null): string => (value ? DATE.format(new Date(value)) : '');

/** The most urgent of a user's course states: overdue before almost overdue before in order, then the earliest deadline. */
export function mostUrgent(states: readonly CourseSummary[]): CourseSummary | undefined {
  const rank = (s: CourseSummary) => URGENCY[s.deadline_status ?? 'in_order'];
  const at = (s: CourseSummary) => (s.deadline ? new Date(s.deadline).getTime() : Number.POSITIVE_INFINITY);
  return [...states].sort((a, b) => rank(a) - rank(b) || at(a) - at(b) || a.course_id - b.course_id)[0];
}

/**
 * Analytics (DESIGN.md §6 "Analytics"): an admin sees every user, a manager the other users of their
 * department; every figure comes from the learning engine.
 */
export class AnalyticsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly courses: CoursesRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly engine: LearningEngine,
  ) {}

  private async team(viewer: SessionUser): Promise<UserRecord[]> {
    if (can(viewer.role, 'settings.manage')) return this.users.list();
    if (viewer.department_id === null) return [];
    return (await this.users.inDepartment(viewer.department_id)).filter((u) => u.id !== viewer.id);
  }

  private async member(viewer: SessionUser, userId: number): Promise<UserRecord> {
    const user = await this.users.find(userId);
    const inScope =
      user !== undefined &&
      (can(viewer.role, 'settings.manage') ||
        (viewer.department_id !== null && user.department_id === viewer.department_id && user.id !== viewer.id));
    if (!user || !inScope) throw notFound(M.userNotFound);
    return user;
  }

  /**
   * Every course of the viewer's team that is overdue or almost overdue, most urgent first (the
   * managers' weekly digest): the same scope and engine figures as the screen, one entry per course.
   */
  async attention(viewer: SessionUser): Promise<AttentionEntry[]> {
    const team = await this.team(viewer);
    const byId = new Map(team.map((u) => [u.id, u]));
    const states = await this.engine.summaries([...byId.keys()], undefined, { enrolledOnly: true });
    const urgent = [...states.entries()].filter(
      ([, s]) => s.deadline_status === 'overdue' || s.deadline_status === 'almost_overdue',
    );
    const titles = new Map(
      (await this.courses.titles([...new Set(urgent.map(([, s]) => s.course_id))])).map((c) => [c.id, c.title]),
    );
    const out: AttentionEntry[] = [];
    for (const [key, s] of urgent) {
      const user = byId.get(Number(key.split(':')[0]));
      if (!user || !s.deadline) continue;
      out.push({
        user_id: user.id,
        name: fullName(user),
        course_id: s.course_id,
        course: titles.get(s.course_id) ?? '',
        deadline: s.deadline,
        status: s.deadline_status === 'overdue' ? 'overdue' : 'almost_overdue',
      });
    }
    return out.sort(
      (a, b) =>
        URGENCY[a.status] - URGENCY[b.status] ||
        a.deadline.localeCompare(b.deadline) ||
        a.name.localeCompare(b.name, 'ru'),
    );
  }

  async overview(viewer: SessionUser) {
    const team = await this.team(viewer);
    const states = await this.engine.summaries(
      team.map((u) => u.id),
      undefined,
      { enrolledOnly: true },
    );
    const byUser = new Map<number, CourseSummary[]>();
    for (const [key, state] of states) {
      const userId = Number(key.split(':')[0]);
      const list = byUser.get(userId);
      if (list) list.push(state);
      else byUser.set(userId, [state]);
    }
    const urgent = team.map((u) => ({ user: u, state: mostUrgent(byUser.get(u.id) ?? []) }));
    const titles = new Map(
      (await this.courses.titles([...new Set(urgent.flatMap((x) => (x.state ? [x.state.course_id] : [])))])).map(
        (c) => [c.id, c.title],
      ),
    );
    const analytic: Record<DeadlineStatus, AnalyticsEmployee[]> = { overdue: [], almost_overdue: [], in_order: [] };
    for (const { user, state } of urgent) {
      const group = state?.deadline_status ?? 'in_order';
      analytic[group].push({
        id: user.id,
        name: fullName(user),
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        department: user.department_name,
        photo: storageUrl(user.photo_path),
        deadline: displayDate(state?.deadline ?? null),
        deadline_at: state?.deadline ?? null,
        percent: state?.progress ?? 0,
        last_activity: user.last_activity_at,
        course: state ? { id: state.course_id, name: titles.get(state.course_id) ?? '' } : null,
      });
    }
    for (const list of Object.values(analytic)) {
      list.sort(
        (a, b) => (a.deadline_at ?? '~').localeCompare(b.deadline_at ?? '~') || a.name.localeCompare(b.name, 'ru'),
      );
    }
    return analytic;
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
        const items = m.items.map((i) => ({
          id: i.id,
          name: i.name,
          type: i.type,
          status: status.get(`${i.type}:${i.id}`) ?? ('not_started' as const),
        }));
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
