import { Anchor } from '@mantine/core';
import { fireEvent, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test/render';
import { setupUser } from '../test/user';
import { Link } from './Link';

describe('Link', () => {
  it('is an anchor to the address; a plain click navigates inside the app', async () => {
    const user = setupUser();
    renderAt(<Link to="/courses/7">Курс</Link>, '/');
    const link = screen.getByRole('link', { name: 'Курс' });
    expect(link).toHaveAttribute('href', '/courses/7');
    await user.click(link);
    expect(await screen.findByTestId('location')).toHaveTextContent('/courses/7');
  });

  it('resolves a relative address against the current route', () => {
    renderAt(<Link to="settings">Настройки</Link>, '/management/constructor/3', '/management/constructor/:id');
    expect(screen.getByRole('link', { name: 'Настройки' })).toHaveAttribute(
      'href',
      '/management/constructor/3/settings',
    );
  });

  it('leaves a click with a modifier key, or in another target, to the browser', () => {
    renderAt(
      <>
        <Link to="/a">Ссылка</Link>
        <Link to="/b" target="_blank">
          В новой вкладке
        </Link>
      </>,
      '/',
    );
    // Whether the app prevented the default action, seen after React (which listens on the root);
    // then prevented here, so that jsdom does not try to load another document.
    const prevented: boolean[] = [];
    const record = (event: MouseEvent) => {
      prevented.push(event.defaultPrevented);
      event.preventDefault();
    };
    window.addEventListener('click', record);
    try {
      fireEvent.click(screen.getByRole('link', { name: 'Ссылка' }), { ctrlKey: true, button: 0 });
      fireEvent.click(screen.getByRole('link', { name: 'В новой вкладке' }), { button: 0 });
    } finally {
      window.removeEventListener('click', record);
    }
    expect(prevented).toEqual([false, false]);
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });

  it("calls the caller's onClick first; a prevented click does not navigate", async () => {
    const user = setupUser();
    const onClick = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    renderAt(
      <Link to="/x" onClick={onClick}>
        Нет
      </Link>,
      '/',
    );
    await user.click(screen.getByRole('link', { name: 'Нет' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });

  it("serves as a Mantine component's root element, ref included", async () => {
    const user = setupUser();
    const ref = createRef<HTMLAnchorElement>();
    renderAt(
      <Anchor component={Link} to="/profile" ref={ref} replace state={{ from: 'test' }}>
        Профиль
      </Anchor>,
      '/',
    );
    const link = screen.getByRole('link', { name: 'Профиль' });
    expect(ref.current).toBe(link);
    expect(link).toHaveClass('mantine-Anchor-root');
    await user.click(link);
    expect(await screen.findByTestId('location')).toHaveTextContent('/profile');
  });

  it("is the app's only link: no module imports react-router's <Link> or <NavLink>", () => {
    // react-router's links carry framework-mode prefetching; the router sits in the entry file, so
    // using them anywhere puts that code on every first screen (docs/performance.md).
    const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const importsRouterLink = /import\s*\{[^}]*\b(?:Link|NavLink)\b[^}]*\}\s*from\s*'react-router(?:\/dom)?'/;
    const offenders = Object.entries(sources)
      .filter(([, source]) => importsRouterLink.test(source))
      .map(([path]) => path);
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(offenders).toEqual([]);
  });
});
