import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setupUser } from '../../test/user';
import { question } from './fixtures';
import { QuestionCard } from './QuestionCard';

const imageQuestion = question({
  id: 5,
  type: 'image',
  multiple: true,
  correctAnswers: 2,
  labels: ['Схема А', 'Схема Б'],
  options: [
    { id: 51, value: '/storage/tests/a.png', is_selected: false },
    { id: 52, value: '/storage/tests/b.png', is_selected: false },
  ],
});

describe('QuestionCard (docs/product.md §Test taking)', () => {
  it('shows image options with their labels and passes the choice on', async () => {
    const onChoose = vi.fn();
    render(
      <MantineProvider env="test">
        <QuestionCard
          question={imageQuestion}
          number={2}
          total={4}
          selected={[52]}
          onChoose={onChoose}
          readOnly={false}
        />
      </MantineProvider>,
    );
    expect(screen.getByText('Вопрос 2 из 4')).toBeInTheDocument();
    expect(screen.getByText('Несколько верных ответов')).toBeInTheDocument();
    const first = screen.getByRole('checkbox', { name: /Схема А/ });
    expect(within(first).getByRole('img', { name: 'Схема А' })).toHaveAttribute('src', '/storage/tests/a.png');
    expect(screen.getByRole('checkbox', { name: /Схема Б/ })).toBeChecked();
    await setupUser().click(first);
    expect(onChoose).toHaveBeenCalledWith(51);
  });

  it('locks the options when read-only', async () => {
    const onChoose = vi.fn();
    render(
      <MantineProvider env="test">
        <QuestionCard question={imageQuestion} number={1} total={1} selected={[]} onChoose={onChoose} readOnly />
      </MantineProvider>,
    );
    const first = screen.getByRole('checkbox', { name: /Схема А/ });
    expect(first).toBeDisabled();
    await setupUser().click(first);
    expect(onChoose).not.toHaveBeenCalled();
  });
});
