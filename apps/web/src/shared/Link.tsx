import type { ComponentPropsWithRef } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router';

export interface LinkProps extends Omit<ComponentPropsWithRef<'a'>, 'href'> {
  /** An address inside the app (a path, or a path object); external links are plain anchors. */
  to: To;
  /** Replace the current history entry (by default only when the address does not change). */
  replace?: boolean;
  state?: unknown;
}

/**
 * A link inside the app: an anchor whose plain left click navigates without reloading (a click with
 * a modifier key, a middle click or another `target` is left to the browser).
 *
 * The app's links use this instead of react-router's `<Link>`, which also carries framework-mode
 * prefetching (`prefetch`, route-module links, single-fetch URLs) that this client never uses: the
 * router lives in the entry file, so all of it would be part of every first screen.
 */
export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target });
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
}
