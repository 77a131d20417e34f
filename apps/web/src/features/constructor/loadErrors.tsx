import { useEffect } from 'react';
import { isNotFound, messageOr, serverMessage } from '../../lib/errors';
import { MissingNotice } from '../../shared/ListStates';
import { toastError } from '../../shared/toast';
import { T } from './texts';

/**
 * Shows a load error as a toast once per failure, the server's message when it sent one (docs/product.md
 * §Constructor); the screen shows the default text in place as well. A missing course, lesson or test (404)
 * is said by the page alone, once (issue 30).
 */
export function useLoadErrorToast(error: unknown, updatedAt: number, fallback: string, id: string) {
  useEffect(() => {
    if (error && !isNotFound(error)) toastError(messageOr(error, fallback), id);
  }, [error, updatedAt, fallback, id]);
}

/** A missing course, in place of the whole constructor page: back to the list of courses. */
export function MissingCourse({ error }: { error: unknown }) {
  return (
    <MissingNotice
      title={serverMessage(error) ?? T.courseMissing}
      hint={T.missingHint}
      back={{ to: '/management', label: T.toCourses }}
    />
  );
}

/** A missing lesson or test, in the pane beside the course's modules: back to the course. */
export function MissingItem({ error, fallback, courseId }: { error: unknown; fallback: string; courseId: number }) {
  return (
    <MissingNotice
      order={2}
      title={serverMessage(error) ?? fallback}
      hint={T.missingHint}
      back={{ to: `/management/constructor/${courseId}`, label: T.toCourse }}
    />
  );
}
