import { Button } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, resetToasts } from '../test/render';
import { setupUser } from '../test/user';
import { toastError, toastSuccess } from './toast';

afterEach(() => {
  resetToasts();
  vi.restoreAllMocks();
});

/** Places an element at `top` px in a 800 px high window (jsdom lays nothing out). */
function placeAt(element: HTMLElement, top: number) {
  vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(800);
  vi.spyOn(element, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ x: 900, y: top, width: 100, height: 36 }),
  );
}

const corner = (text: string) => screen.getByText(text).closest('[data-position]')?.getAttribute('data-position');

/** Issue 30: a toast never covers the control it talks about. */
describe('where toasts show', () => {
  it('a control low in the window gets its toast at the top right, below the header', async () => {
    const ue = setupUser();
    renderAt(<Button onClick={() => toastError('Пожалуйста, заполните все поля у ученика #1')}>Добавить</Button>);
    placeAt(screen.getByRole('button', { name: 'Добавить' }), 720);
    await ue.click(screen.getByRole('button', { name: 'Добавить' }));
    await waitFor(() => expect(corner('Пожалуйста, заполните все поля у ученика #1')).toBe('top-right'));
  });

  it('a control high in the window gets its toast at the bottom right', async () => {
    const ue = setupUser();
    renderAt(<Button onClick={() => toastSuccess('Статус курса успешно изменен')}>Опубликован</Button>);
    placeAt(screen.getByRole('button', { name: 'Опубликован' }), 140);
    await ue.click(screen.getByRole('button', { name: 'Опубликован' }));
    await waitFor(() => expect(corner('Статус курса успешно изменен')).toBe('bottom-right'));
  });

  it('an answer that comes later still goes away from the control that asked', async () => {
    const ue = setupUser();
    renderAt(
      <Button onClick={() => void Promise.resolve().then(() => toastSuccess('Изменения успешно сохранены'))}>
        Сохранить
      </Button>,
    );
    placeAt(screen.getByRole('button', { name: 'Сохранить' }), 700);
    await ue.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(corner('Изменения успешно сохранены')).toBe('top-right'));
  });

  it('with no control (a load, a page that went away) at the bottom right', async () => {
    renderAt(<div />);
    toastError('Ошибка при загрузке данных');
    await waitFor(() => expect(corner('Ошибка при загрузке данных')).toBe('bottom-right'));
  });
});
