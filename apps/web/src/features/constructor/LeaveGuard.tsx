import { useCallback, useEffect } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { ConfirmDialog } from './dialogs';
import { T } from './texts';

/**
 * The navigation state of a way out that must not ask: the page's own item went away (deleted),
 * so its unsaved changes have nowhere to go.
 */
export const LEAVE_WITHOUT_ASKING = { leaveWithoutAsking: true } as const;

function leavesWithoutAsking(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'leaveWithoutAsking' in state;
}

/**
 * Leaving a page with unsaved changes asks first (issue 30). Any move to another address inside the
 * app — a menu or course tree link, the breadcrumb, the back button — is held by react-router's
 * blocker until the dialog is answered; closing or reloading the tab gets the browser's own question.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname && !leavesWithoutAsking(nextLocation.state),
    [when],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);

  const blocked = blocker.state === 'blocked';
  return (
    <ConfirmDialog
      opened={blocked}
      title={T.leaveTitle}
      question={T.leaveQuestion}
      warning={T.leaveWarning}
      confirmLabel={T.leave}
      cancelLabel={T.stay}
      cancelFirst
      busy={false}
      onConfirm={() => {
        if (blocker.state === 'blocked') blocker.proceed();
      }}
      onClose={() => {
        if (blocker.state === 'blocked') blocker.reset();
      }}
    />
  );
}
