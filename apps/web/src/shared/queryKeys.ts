/**
 * The query keys more than one part of the client reads, writes or drops: the one place that names
 * them, so that a feature refreshing another's answer cannot miss it by spelling the key again.
 * Keys only their own feature uses stay in that feature's queries.ts (e.g. `constructorKeys`).
 */

/** The session (GET /api/check-auth): read by the guards and every screen, replaced by sign-in. */
export const sessionQueryKey = ['check-auth'] as const;

/** The public configuration (GET /api/config). */
export const configQueryKey = ['config'] as const;

/** The server's named-route table (GET /ziggy). */
export const ziggyQueryKey = ['ziggy'] as const;

/** The catalogue (GET /api/courses): refreshed when the constructor changes a course's title, image or state. */
export const catalogueQueryKey = ['catalogue'] as const;

/**
 * Every answer of the school settings screens (employees, departments, study groups, an employee's
 * courses): their keys all begin with it. A course assigned from the course's own settings changes
 * what they show, so it refreshes them all by this prefix.
 */
export const settingsQueryKey = ['settings'] as const;

/** The home page's courses (GET /api/user/courses). */
export const userCoursesQueryKey = ['user-courses'] as const;

/** The home page's started lessons (GET /api/user/started-lessons). */
export const startedLessonsQueryKey = ['started-lessons'] as const;

/** The home page's lists: a finished lesson or test changes both. */
export const homeQueryKeys = [userCoursesQueryKey, startedLessonsQueryKey] as const;

/** How the answers read once per page load (session, configuration, route table) are kept: never stale, never dropped. */
export const READ_ONCE = { staleTime: Infinity, gcTime: Infinity } as const;

/**
 * The signed-in learner's certificates (GET /api/my/certificates): the profile and the course page
 * read them; finishing a course can issue one, so the learning screens may drop them.
 */
export const myCertificatesQueryKey = ['my-certificates'] as const;
