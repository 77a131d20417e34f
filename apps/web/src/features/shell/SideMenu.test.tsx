import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { menuItems } from '../../test/fixtures';
import { mockHttp, testZiggy, type MockReply } from '../../test/http';
import { renderAt } from '../../test/render';
import { SideMenu } from './SideMenu';

let restore: () => void = () => {};
afterEach(() => restore());

function setup(path: string, menuReply: MockReply, ziggy: unknown = testZiggy) {
  const mock = mockHttp({
    'GET /ziggy': { status: 200, data: ziggy },
    'GET /api/menu': menuReply,
  });
  restore = mock.restore;
  const view = renderAt(<SideMenu />, path);
  return { ...view, requests: mock.requests };
}

describe('SideMenu', () => {
  it('highlights the item whose link equals the current path and gives it the active icon', async () => {
    setup('/analytics', { status: 200, data: { items: menuItems } });
    const active = await screen.findByRole('link', { name: 'Аналитика' });
    expect(active).toHaveAttribute('href', '/analytics');
    expect(active).toHaveAttribute('aria-current', 'page');
    expect(active).toHaveAttribute('data-active', 'true');
    expect(active.querySelector('[data-icon]')).toHaveAttribute('data-icon', 'analytics-active');

    for (const name of ['Главная', 'Профиль', 'Управление курсами', 'Настройки']) {
      const link = screen.getByRole('link', { name });
      expect(link).not.toHaveAttribute('aria-current');
      expect(link).not.toHaveAttribute('data-active');
    }
    const home = screen.getByRole('link', { name: 'Главная' });
    expect(home.querySelector('[data-icon]')).toHaveAttribute('data-icon', 'home');
    expect(home.querySelector('svg')).toHaveClass('tabler-icon-home');
    expect(active.querySelector('svg')).toHaveClass('tabler-icon-chart-pie-filled');
  });

  it('does not highlight a parent item on a nested path ("/" is not active on /profile)', async () => {
    setup('/profile', { status: 200, data: { items: menuItems } });
    expect(await screen.findByRole('link', { name: 'Профиль' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Главная' })).not.toHaveAttribute('aria-current');
  });

  it('takes the menu path from the route table and asks only once the table has the menu entry', async () => {
    const { requests } = setup(
      '/',
      { status: 200, data: { items: menuItems } },
      {
        ...testZiggy,
        routes: { login: testZiggy.routes.login },
      },
    );
    await waitFor(() => expect(requests.some((r) => r.url === '/ziggy')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('side-menu-loading')).not.toBeInTheDocument());
    expect(requests.some((r) => r.url === '/api/menu')).toBe(false);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });

  it('shows an empty menu when the call fails or items is not an array', async () => {
    const { unmount } = setup('/', { status: 500 });
    await waitFor(() => expect(screen.queryByTestId('side-menu-loading')).not.toBeInTheDocument());
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    unmount();
    restore();

    const second = setup('/', { status: 200, data: { items: 'nope' } });
    await waitFor(() => expect(second.requests.some((r) => r.url === '/api/menu')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('side-menu-loading')).not.toBeInTheDocument());
    expect(within(second.container).queryAllByRole('link')).toHaveLength(0);
  });
});
