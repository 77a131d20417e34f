import { z } from 'zod';
import { MAX_DB_INT, safeText } from './common.js';

const counter = z.object({ total: z.number().int(), completed: z.number().int() });

/** What a course card shows after its name and image, in the admin catalogue and on the home page alike. */
const cardFigures = {
  groups: z.number().int(),
  students: z.number().int(),
  /** ISO time of the viewer's own deadline in the course, or null. */
  deadline: z.string().nullable(),
  deadline_status: z.enum(['overdue', 'almost_overdue', 'in_order']).nullable(),
  lessons: counter,
  test: counter,
  progress: z.number().int(),
  complete: z.boolean(),
};

/** The pseudo-category of courses without a category (docs/product.md §Catalogue). */
export const UNCATEGORISED_ID = -1;
export const UNCATEGORISED_NAME = 'Без категории';

/** A course card in the admin catalogue, GET /api/courses (docs/product.md §Catalogue). */
export const catalogueCourse = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  url: z.string(),
  is_published: z.boolean(),
  category_id: z.number().int().nullable(),
  ...cardFigures,
});
export type CatalogueCourse = z.infer<typeof catalogueCourse>;

export const catalogueCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  sort_order: z.number().int(),
  items: z.array(catalogueCourse),
});
export type CatalogueCategory = z.infer<typeof catalogueCategory>;
export const catalogueResponse = z.object({
  result: z.object({ success: z.literal(true), items: z.array(catalogueCategory) }),
});

const nameOf = (max: number) => safeText(max, { required: 'Поле не может быть пустым' });
const name = nameOf(150);
const categoryName = nameOf(255);

/** POST /api/courses */
export const createCourseRequest = z.object({
  /** Omitted: 'Новый курс' (numbered when taken). */
  name: name.optional(),
  /** -1 (the uncategorised pseudo-category) or null: no category. */
  category_id: z.number().int().min(-1).max(MAX_DB_INT).nullish(),
});
export const createCourseResponse = z.object({
  result: z.object({
    success: z.literal(true),
    message: z.string(),
    item: z.object({ id: z.number().int(), name: z.string(), category_id: z.number().int().nullable() }),
  }),
});

export const categoryItem = z.object({ id: z.number().int(), name: z.string(), sort_order: z.number().int() });
export type CategoryItem = z.infer<typeof categoryItem>;
/** POST /api/courses/categories, PUT /api/courses/categories/{id} */
export const categoryNameRequest = z.object({ name: categoryName });
export const categoryResponse = z.object({
  result: z.object({ success: z.literal(true), message: z.string(), item: categoryItem }),
});
/** POST /api/courses/categories/update: order and names in one go, on leaving edit mode. */
export const categoriesBulkRequest = z.object({
  categories: z
    .array(
      z.object({
        id: z.number().int().min(-1).max(MAX_DB_INT),
        name: categoryName,
        sort_order: z.number().int().min(0).max(MAX_DB_INT),
      }),
    )
    .max(1000),
});

/** A course card on the home page, GET /api/user/courses (docs/product.md §Course card). */
export const homeCourse = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  url: z.string(),
  ...cardFigures,
});
export type HomeCourse = z.infer<typeof homeCourse>;
export const homeCategory = z.object({ id: z.number().int(), name: z.string(), items: z.array(homeCourse) });
export type HomeCategory = z.infer<typeof homeCategory>;
export const userCoursesHomeResponse = z.object({
  result: z.object({ success: z.literal(true), categories: z.array(homeCategory) }),
});

/** GET /api/user/started-lessons */
export const startedLesson = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  name: z.string(),
  module: z.string(),
  section: z.string(),
  image: z.string().nullable(),
});
export type StartedLesson = z.infer<typeof startedLesson>;
export const startedLessonsResponse = z.object({
  result: z.object({ success: z.literal(true), items: z.array(startedLesson) }),
});
