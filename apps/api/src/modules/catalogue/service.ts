import {
  UNCATEGORISED_ID,
  UNCATEGORISED_NAME,
  type CatalogueCategory,
  type CatalogueCourse,
  type CategoryItem,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { CoursesService } from '../courses/service.js';
import type { LearningEngine } from '../progress/service.js';
import type { ViewerCourse } from '../progress/reads.js';
import { catalogueCard } from './cards.js';
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

/** The admin course catalogue with categories (docs/product.md §Catalogue). */
export class CatalogueService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: CatalogueRepository,
    private readonly courses: CoursesRepository,
    private readonly courseDeletion: CoursesService,
    private readonly engine: LearningEngine,
    private readonly clock: Clock,
  ) {}

  /**
   * Every category (the uncategorised pseudo-category -1 last, when it has courses) with its cards:
   * every live course with the viewer's own figures (progress/reads.ts `viewerCourseList`: the
   * viewer's rows read, the courses and categories kept while their version holds).
   */
  async catalogue(viewerId: number): Promise<CatalogueCategory[]> {
    const { courses, categories } = await this.engine.viewerCourseList(viewerId);
    return this.categorised(courses, categories);
  }

  private categorised(courses: readonly ViewerCourse[], categories: readonly CategoryItem[]): CatalogueCategory[] {
    const byCategory = new Map<number | null, CatalogueCourse[]>();
    for (const { course, summary } of courses) {
      const card = catalogueCard(course, summary);
      const list = byCategory.get(course.category_id);
      if (list) list.push(card);
      else byCategory.set(course.category_id, [card]);
    }
    const out: CatalogueCategory[] = categories.map((cat) => ({ ...cat, items: byCategory.get(cat.id) ?? [] }));
    const loose = byCategory.get(null) ?? [];
    if (loose.length > 0) {
      out.push({ id: UNCATEGORISED_ID, name: UNCATEGORISED_NAME, sort_order: out.length, items: loose });
    }
    return out;
  }

  createCategory(name: string) {
    return this.uow.run(async () => {
      if (await this.repo.categoryNameTaken(name)) throw duplicate('name');
      const max = await this.repo.maxSortOrder();
      return this.repo.insertCategory(name, (max ?? -1) + 1, iso(this.clock.now()));
    });
  }

  renameCategory(id: number, name: string) {
    return this.uow.run(async () => {
      const category = await this.repo.category(id);
      if (!category) throw notFound(CATALOGUE_MESSAGES.categoryNotFound);
      if (await this.repo.categoryNameTaken(name, [id])) throw duplicate('name');
      await this.repo.updateCategory(id, { name }, iso(this.clock.now()));
      return { ...category, name };
    });
  }

  updateCategories(list: { id: number; name: string; sort_order: number }[]): Promise<void> {
    return this.uow.run(() => this.updateCategoriesInUnit(list));
  }

  private async updateCategoriesInUnit(list: { id: number; name: string; sort_order: number }[]): Promise<void> {
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
    const now = iso(this.clock.now());
    // Two passes so that swapping two names never trips the unique index half-way.
    for (const c of real) await this.repo.updateCategory(c.id, { name: `~renaming~${c.id}~${now}` }, now);
    for (const c of real) await this.repo.updateCategory(c.id, { name: c.name, sort_order: c.sort_order }, now);
  }

  /** The category and its courses are deleted softly (docs/product.md §Catalogue: its courses go with it); records stay. */
  deleteCategory(id: number): Promise<void> {
    return this.uow.run(async () => {
      if (!(await this.repo.category(id))) throw notFound(CATALOGUE_MESSAGES.categoryNotFound);
      const now = iso(this.clock.now());
      await this.courseDeletion.delete({ categoryId: id }, now);
      await this.repo.softDeleteCategory(id, now);
    });
  }

  private async courseTitleTaken(title: string): Promise<boolean> {
    const key = foldCase(title);
    return (await this.courses.allTitles()).some((r) => foldCase(r.title) === key);
  }

  /** Without a name the course is called 'Новый курс' (then 'Новый курс 2', …); a name given must be free. */
  createCourse(given: string | undefined, categoryId: number | null | undefined) {
    return this.uow.run(async () => {
      const category = categoryId && categoryId !== UNCATEGORISED_ID ? categoryId : null;
      if (category !== null && !(await this.repo.category(category))) {
        throw notFound(CATALOGUE_MESSAGES.categoryNotFound);
      }
      let name = given ?? DEFAULT_COURSE_NAME;
      if (given === undefined) {
        for (let n = 2; await this.courseTitleTaken(name); n++) name = `${DEFAULT_COURSE_NAME} ${n}`;
      } else if (await this.courseTitleTaken(name)) throw duplicate('name');
      const max = await this.courses.maxSortOrder(category);
      const row = await this.courses.insert(
        { title: name, category_id: category, sort_order: (max ?? -1) + 1 },
        iso(this.clock.now()),
      );
      return { id: row.id, name: row.title, category_id: row.category_id };
    });
  }
}
