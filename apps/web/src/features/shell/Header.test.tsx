import type { AuthUser } from '@lms/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { adminUser } from '../../test/fixtures';
import { renderAt } from '../../test/render';
import { Header } from './Header';
import { setupUser } from '../../test/user';

function setup(user: AuthUser = adminUser, onLogout = vi.fn()) {
  const view = renderAt(<Header user={user} companyName="ООО «Ромашка»" onLogout={onLogout} />, '/');
  return { ...view, onLogout, ue: setupUser() };
}

describe('Header', () => {
  it('shows the logo linking to / and an avatar with the initials: first name, then last name (issue 30)', () => {
    setup();
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/');
    const avatarButton = screen.getByRole('button', { name: 'Меню пользователя' });
    expect(avatarButton).toHaveTextContent('МП');
  });

  it('opens a menu with the full name, the role label and "Мой профиль" → /profile', async () => {
    const { ue } = setup();
    expect(screen.queryByText('Петрова Мария Сергеевна')).not.toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Меню пользователя' }));
    expect(await screen.findByText('Петрова Мария Сергеевна')).toBeInTheDocument();
    expect(screen.getByText('Администратор')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Мой профиль' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('menuitem', { name: 'Выйти из аккаунта' })).toBeInTheDocument();
  });

  it("defaults the role label to 'Ученик'", async () => {
    const { ue } = setup({
      ...adminUser,
      name: 'Сидоров Пётр',
      first_name: 'Пётр',
      last_name: 'Сидоров',
      role: null,
      roles_ru: '',
    });
    expect(screen.getByRole('button', { name: 'Меню пользователя' })).toHaveTextContent('ПС');
    await ue.click(screen.getByRole('button', { name: 'Меню пользователя' }));
    expect(await screen.findByText('Ученик')).toBeInTheDocument();
  });

  it('opens from the keyboard: the avatar keeps the focus while the menu loads, and gets it back on Escape', async () => {
    const { ue } = setup();
    const avatar = () => screen.getByRole('button', { name: 'Меню пользователя' });
    expect(avatar()).toHaveAttribute('aria-haspopup', 'menu');
    await ue.tab();
    await ue.tab();
    await vi.waitFor(() => expect(avatar()).toHaveAttribute('aria-expanded', 'false'));
    await import('./AccountMenu');
    await vi.waitFor(() => expect(avatar()).toHaveFocus());
    await ue.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Мой профиль' })).toBeInTheDocument();
    expect(avatar()).toHaveAttribute('aria-expanded', 'true');
    await ue.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await vi.waitFor(() => expect(avatar()).toHaveFocus());
  });

  it('closes the menu on a click outside', async () => {
    const { ue } = setup();
    await ue.click(screen.getByRole('button', { name: 'Меню пользователя' }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await ue.click(document.body);
    await vi.waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('calls the logout handler from "Выйти из аккаунта"', async () => {
    const { ue, onLogout } = setup();
    await ue.click(screen.getByRole('button', { name: 'Меню пользователя' }));
    await ue.click(await screen.findByRole('menuitem', { name: 'Выйти из аккаунта' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });
});
