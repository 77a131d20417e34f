/**
 * Full-page browser navigation, in one mutable object so that tests can spy on it
 * (jsdom does not implement navigation).
 */
export const browser = {
  /** Current path of the page, e.g. '/login'. */
  pathname(): string {
    return window.location.pathname;
  },
  /** Leaves the SPA: a full-page navigation that drops all client state. */
  navigate(url: string): void {
    window.location.href = url;
  },
  reload(): void {
    window.location.reload();
  },
};
