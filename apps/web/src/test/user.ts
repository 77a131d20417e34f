import userEvent from '@testing-library/user-event';

/**
 * A user for component tests. `delay: null`: the keys and clicks of one call are sent back to back,
 * without user-event's default pause (a `setTimeout`) after each of them. The same events reach the
 * page; a test only stops waiting on the timer queue, which a busy machine makes slow.
 */
export function setupUser() {
  return userEvent.setup({ delay: null });
}

export type User = ReturnType<typeof setupUser>;
