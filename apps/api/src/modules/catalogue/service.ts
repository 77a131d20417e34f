import { UNCATEGORISED_ID, UNCATEGORISED_NAME, type CatalogueCategory } from '@lms/contract';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import type { EnrollmentRepository } from '../enrollment/repository.js';
import type { LearningEngine } from '../progress/service.js';
import { stateKey } from '../progress/service.js';
import { courseCard } from './cards.js';
import { foldCase, type CatalogueRepository } from './repository.js';

export const DEFAULT_COURSE_NAME = 'Новый курс';

export const CATALOGUE_MESSAGES = {
  duplicate: 'Введите другое название',
  categoryNotFound: 'Категория не найдена',
  categoryCreated: 'Категория успешно создана',
  categoryRenamed: 'Название категории успешно обновлено',
  categoryDeleted: 'Категория успешно удалена',
  saved: 'Изменения успешно сохранены',
  courseCreated: 'Курс успешно создан',
  noRightsCategory: 'У вас нет прав для создания категории',
  noRightsCourse: 'У вас нет прав для создания курса',
} as const;

const duplicate = (field: string) =>
  unprocessable(CATALOGUE_MESSAGES.duplicate, { [field]: [CATALOGUE_MESSAGES.duplicate] });

/** The admin course catalogue with categories (spec 03 §2.3, §7 "Catalogue"). */
export class CatalogueService {
  constructor(
    private readonly repo: CatalogueRepository,
    private readonly engine: LearningEngine,
    private readonly enrollment: EnrollmentRepository,
    private readonly clock: Clock,
  ) {}

  /** Every category (the uncategorised pseudo-category -1 last, when it has courses) with its cards. */
  async list(viewerId: number): Promise<CatalogueCategory[]> {
    const [categories, courses] = await Promise.all([this.repo.categories(), this.repo.courses()]);
    const ids = courses.map((c) => c.id);
    const [groups, students, states] = await Promise.all([
      this.repo.groupCounts(ids),
      this.enrollment.countByCourse(ids),
      this.engine.states([viewerId], ids),
    ]);
    const card = (c: (typeof courses)[number]) => ({
      ...courseCard(c, states.get(stateKey(viewerId, c.id)), {
        groups: groups.get(c.id) ?? 0,
        students: students.get(c.id) ?? 0,
      }),
      url: `/management/constructor/${c.id}`,
      description: c.description,
      is_published: c.is_published,
      category_id: c.category_id,
    });
    const out: CatalogueCategory[] = categories.map((cat) => ({
      ...cat,
      items: courses.filter((c) => c.category_id === cat.id).map(card),
    }));
    const loose = courses.filter((c) => c.category_id === null);
    if (loose.length > 0) {
      out.push({ id: UNCATEGORISED_ID, name: UNCATEGORISED_NAME, sort_order: out.length, items: loose.map(card) });
    }
    return out;
  }

  async createCategory(name: string) {
    if (await this.repo.categoryNameTaken(name)) throw duplicate('name');
    return this.repo.createCategory(name, iso(this.clock.now()));
  }

  async renameCategory(id: number, name: string) {
    const category = await this.repo.category(id);
    if (!category) throw notFound(CATALOGUE_MESSAGES.categoryNotFound);
    if (await this.repo.categoryNameTaken(name, [id])) throw duplicate('name');
    await this.repo.renameCategory(id, name, iso(this.clock.now()));
    return { ...category, name };
  }

  async updateCategories(list: { id: number; name: string; sort_order: number }[]): Promise<void> {
    const real = list.filter((c) => c.id !== UNCATEGORISED_ID);
    const current = await this.repo.categories();
    const existing = new Set(current.map((c) => c.id));
    if (real.some((c) => !existing.has(c.id))) throw notFound(CATALOGUE_MESSAGES.categoryNotFound);
    // Names after the change: those sent, and those of categories left out of the list.
    const sent = new Set(real.map((c) => c.id));
    const names = [...real.map((c) => c.name), ...current.filter((c) => !sent.has(c.id)).map((c) => c.name)].map(
      foldCase,
    );
    if (new Set(names).size !== names.length) throw duplicate('categories');
    await this.repo.updateCategories(real, iso(this.clock.now()));
  }

  async deleteCategory(id: number): Promise<void> {
    if (!(await this.repo.category(id))) throw notFound(CATALOGUE_MESSAGES.categoryNotFound);
    await this.repo.deleteCategory(id);
  }

  /** Without a name the course is called 'Новый курс' (then 'Новый курс 2', …); a name given must be free. */
  async createCourse(given: string | undefined, categoryId: number | null | undefined) {
    const category = categoryId && categoryId !== UNCATEGORISED_ID ? categoryId : null;
    if (category !== null && !(await this.repo.category(category))) throw notFound(CATALOGUE_MESSAGES.categoryNotFound);
    let name = given ?? DEFAULT_COURSE_NAME;
    if (given === undefined) {
      for (let n = 2; await this.repo.courseTitleTaken(name); n++) name = `${DEFAULT_COURSE_NAME} ${n}`;
    } else if (await this.repo.courseTitleTaken(name)) throw duplicate('name');
    const row = await this.repo.createCourse(name, category, iso(this.clock.now()));
    return { id: row.id, name: row.title, category_id: row.category_id };
  }
}
