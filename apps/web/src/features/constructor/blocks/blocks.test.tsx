import type { ButtonItem } from '@lms/contract';
import { MantineProvider } from '@mantine/core';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockHttp, type RecordedRequest } from '../../../test/http';
import type { ButtonBlock, FileBlock, ImageBlock } from '../logic';
import { ButtonBlockEditor } from './ButtonBlockEditor';
import { FileBlockEditor } from './FileBlockEditor';
import { ImageBlockEditor } from './ImageBlockEditor';
import { VideoBlockEditor } from './VideoBlockEditor';

// The screens make a few calls in a row; on a busy machine they take longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  vi.restoreAllMocks();
});

const MB = 1024 * 1024;

/** A file that says it is `size` bytes long without holding them. */
function fileOf(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function choose(label: string, file: File) {
  const input = screen.getByLabelText(label, { selector: 'input[type="file"]' });
  fireEvent.change(input, { target: { files: [file] } });
}

// ── Кнопка ──

function Buttons({ initial, onChange }: { initial: ButtonItem[]; onChange?: (b: ButtonItem[]) => void }) {
  const [block, setBlock] = useState<ButtonBlock>({ id: 'tmp-1', type: 'button', buttons: initial });
  return (
    <MantineProvider env="test">
      <ButtonBlockEditor
        block={block}
        editing
        onChange={(buttons) => {
          onChange?.(buttons);
          setBlock((b) => ({ ...b, buttons }));
        }}
      />
    </MantineProvider>
  );
}

describe('the button block (docs/product.md §Lesson editor)', () => {
  it('the first button cannot be deleted; a second is added only while exactly one exists', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Buttons initial={[{ title: 'Кнопка', url: '' }]} />);
    expect(screen.getAllByRole('textbox', { name: 'Текст кнопки' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Удалить кнопку/ })).toBeNull();

    const add = screen.getByRole('button', { name: 'Добавить кнопку' });
    expect(add).toBeEnabled();
    await user.click(add);
    const labels = screen.getAllByRole('textbox', { name: 'Текст кнопки' });
    expect(labels.map((l) => (l as HTMLInputElement).value)).toEqual(['Кнопка', 'Кнопка']);
    expect(add).toBeDisabled();
    // only the second has a delete button
    expect(screen.getAllByRole('button', { name: /Удалить кнопку/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Удалить кнопку 2' }));
    expect(screen.getAllByRole('textbox', { name: 'Текст кнопки' })).toHaveLength(1);
    expect(add).toBeEnabled();
  });

  it('no second button when two already exist (from a stored block)', () => {
    render(
      <Buttons
        initial={[
          { title: 'Раз', url: '' },
          { title: 'Два', url: '' },
        ]}
      />,
    );
    expect(screen.getByRole('button', { name: 'Добавить кнопку' })).toBeDisabled();
  });

  it('labels hold at most 40 characters, with a counter', () => {
    const onChange = vi.fn();
    render(<Buttons initial={[{ title: 'Кнопка', url: '' }]} onChange={onChange} />);
    const label = screen.getByRole('textbox', { name: 'Текст кнопки' });
    expect(label).toHaveAttribute('maxlength', '40');
    expect(screen.getByText('6/40')).toBeInTheDocument();
    fireEvent.change(label, { target: { value: 'я'.repeat(55) } });
    expect(label).toHaveValue('я'.repeat(40));
    expect(onChange).toHaveBeenLastCalledWith([{ title: 'я'.repeat(40), url: '' }]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Ссылка' }), { target: { value: 'https://example.com' } });
    expect(onChange).toHaveBeenLastCalledWith([{ title: 'я'.repeat(40), url: 'https://example.com' }]);
  });

  it('outside editing shows the buttons as links, the first one green', () => {
    render(
      <MantineProvider env="test">
        <ButtonBlockEditor
          block={{ id: 3, type: 'button', buttons: [{ title: 'Открыть', url: 'https://example.com/' }] }}
          editing={false}
          onChange={() => {}}
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('link', { name: 'Открыть' })).toHaveAttribute('href', 'https://example.com/');
  });
});

// ── Картинка ──

function Image({ onChange }: { onChange: (patch: Partial<ImageBlock>) => void }) {
  const [block, setBlock] = useState<ImageBlock>({
    id: 'tmp-2',
    type: 'image',
    file_path: null,
    original_filename: null,
    description: '',
  });
  return (
    <MantineProvider env="test">
      <ImageBlockEditor
        block={block}
        editing
        lessonId={42}
        onChange={(patch) => {
          onChange(patch);
          setBlock((b) => ({ ...b, ...patch }));
        }}
      />
    </MantineProvider>
  );
}

describe('the image block (docs/product.md §Lesson editor)', () => {
  it('refuses a file that is not jpeg, png, webp or gif, and sends nothing', () => {
    const mock = mockHttp({});
    restore = mock.restore;
    const onChange = vi.fn();
    render(<Image onChange={onChange} />);
    choose('Выбрать изображение', fileOf('setup.exe', 'application/x-msdownload', 1000));
    expect(screen.getByRole('alert')).toHaveTextContent('Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif');
    choose('Выбрать изображение', fileOf('photo.svg', 'image/svg+xml', 1000));
    expect(screen.getByRole('alert')).toHaveTextContent('Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif');
    expect(mock.requests).toHaveLength(0);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('refuses a picture over 20 MB, and sends nothing', () => {
    const mock = mockHttp({});
    restore = mock.restore;
    render(<Image onChange={vi.fn()} />);
    choose('Выбрать изображение', fileOf('big.png', 'image/png', 20 * MB + 1));
    expect(screen.getByRole('alert')).toHaveTextContent('Размер файла не должен превышать 20 МБ');
    expect(mock.requests).toHaveLength(0);
  });

  it('uploads a picture of 20 MB: lesson_id first, then image; shows it and takes a description', async () => {
    const mock = mockHttp({
      'POST /api/upload-image': {
        status: 200,
        data: {
          result: {
            success: true,
            file_path: 'lessons/abc.png',
            original_filename: 'scheme.png',
            url: '/storage/lessons/abc.png',
          },
        },
      },
    });
    restore = mock.restore;
    const onChange = vi.fn();
    render(<Image onChange={onChange} />);
    choose('Выбрать изображение', fileOf('scheme.png', 'image/png', 20 * MB));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange).toHaveBeenCalledWith({ file_path: 'lessons/abc.png', original_filename: 'scheme.png' });
    const form = mock.requests[0]?.body as FormData;
    expect([...form.keys()]).toEqual(['lesson_id', 'image']);
    expect(form.get('lesson_id')).toBe('42');
    expect(screen.getByRole('img')).toHaveAttribute('src', '/storage/lessons/abc.png');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Описание изображения' }), { target: { value: 'Схема' } });
    expect(onChange).toHaveBeenLastCalledWith({ description: 'Схема' });
  });

  it('a refused upload shows «Произошла ошибка при загрузке изображения: …» with the reason', async () => {
    const mock = mockHttp({
      'POST /api/upload-image': {
        status: 422,
        data: { result: { success: false, message: 'Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif' } },
      },
    });
    restore = mock.restore;
    render(<Image onChange={vi.fn()} />);
    choose('Выбрать изображение', fileOf('fake.png', 'image/png', 100));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Произошла ошибка при загрузке изображения: Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif',
    );
  });
});

// ── Файл ──

function FileEditor({ onChange }: { onChange: (patch: Partial<FileBlock>) => void }) {
  const [block, setBlock] = useState<FileBlock>({
    id: 'tmp-3',
    type: 'file',
    file_path: null,
    original_filename: null,
  });
  return (
    <MantineProvider env="test">
      <FileBlockEditor
        block={block}
        editing
        lessonId={42}
        onChange={(patch) => {
          onChange(patch);
          setBlock((b) => ({ ...b, ...patch }));
        }}
      />
    </MantineProvider>
  );
}

describe('the file block (docs/product.md §Lesson editor)', () => {
  it('refuses a file over 4 GB', () => {
    const mock = mockHttp({});
    restore = mock.restore;
    render(<FileEditor onChange={vi.fn()} />);
    choose('Выбрать файл', fileOf('disk.iso', 'application/octet-stream', 4 * 1024 * MB + 1));
    expect(screen.getByRole('alert')).toHaveTextContent('Размер файла не должен превышать 4 ГБ');
    expect(mock.requests).toHaveLength(0);
  });

  it('uploads lesson_id first, then file, and links the stored file', async () => {
    let sent: RecordedRequest | undefined;
    const mock = mockHttp({
      'POST /api/upload-file': (request) => {
        sent = request;
        return {
          status: 200,
          data: {
            result: {
              success: true,
              file_path: 'lessons/f.pdf',
              original_filename: 'guide.pdf',
              url: '/storage/lessons/f.pdf',
            },
          },
        };
      },
    });
    restore = mock.restore;
    const onChange = vi.fn();
    render(<FileEditor onChange={onChange} />);
    choose('Выбрать файл', fileOf('guide.pdf', 'application/pdf', 3 * MB));
    expect(await screen.findByRole('link', { name: 'guide.pdf' })).toHaveAttribute('href', '/storage/lessons/f.pdf');
    expect([...(sent?.body as FormData).keys()]).toEqual(['lesson_id', 'file']);
    expect(onChange).toHaveBeenCalledWith({ file_path: 'lessons/f.pdf', original_filename: 'guide.pdf' });
  });

  it('a failed upload shows «Произошла ошибка при загрузке файла»', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const mock = mockHttp({ 'POST /api/upload-file': { status: 500, data: {} } });
    restore = mock.restore;
    render(<FileEditor onChange={vi.fn()} />);
    choose('Выбрать файл', fileOf('guide.pdf', 'application/pdf', 10));
    expect(await screen.findByRole('alert')).toHaveTextContent('Произошла ошибка при загрузке файла');
  });
});

// ── Видео ──

describe('the video block (docs/product.md §Lesson editor)', () => {
  function renderVideo(url: string) {
    return render(
      <MantineProvider env="test">
        <VideoBlockEditor block={{ id: 1, type: 'video', url }} editing onChange={() => {}} />
      </MantineProvider>,
    );
  }

  it('previews a valid video-hosting link only', () => {
    const { unmount } = renderVideo('https://youtu.be/dQw4w9WgXcQ');
    expect(screen.getByTitle('Предпросмотр видео')).toHaveAttribute('src', 'https://www.youtube.com/embed/dQw4w9WgXcQ');
    unmount();
    renderVideo('https://example.com/video.mp4');
    expect(screen.queryByTitle('Предпросмотр видео')).toBeNull();
    expect(screen.getByText('Предпросмотр появится для ссылки YouTube, RuTube или VK Видео')).toBeInTheDocument();
  });
});
