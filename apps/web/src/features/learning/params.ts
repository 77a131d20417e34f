/** A route id: a positive whole number, else null. */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/** The ids of an attempt's page (/courses/{id}/test/{testId}/{attemptId}[/result]). */
export interface AttemptIds {
  courseId: number;
  testId: number;
  attemptId: number;
}

/** The attempt's ids from the address, or null when one of them is not an id. */
export function attemptIds(params: Readonly<Partial<Record<string, string>>>): AttemptIds | null {
  const courseId = parseId(params.courseId);
  const testId = parseId(params.testId);
  const attemptId = parseId(params.attemptId);
  return courseId === null || testId === null || attemptId === null ? null : { courseId, testId, attemptId };
}
