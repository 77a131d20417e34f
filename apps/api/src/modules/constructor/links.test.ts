import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';

/**
 * Links kept in lesson blocks are as safe as the lesson page shows them: a video or button link is
 * http(s) or a path of this site, and an iframe in lesson text is exactly a player address of an
 * allowed host over https. A refused link is a 422 with a Russian message that changes nothing.
 */

const UNSAFE_LINKS = [
  '/\\evil.example/path',
  '/\\/evil.example',
  '//evil.example/path',
  '\\\\evil.example',
  '\\/evil.example',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'mailto:someone@example.com',
  'ftp://example.com/video.mp4',
  'evil.example/video',
  'https:evil.example',
  'http://',
  'https://user:pass@example.com/video',
];

describe(`links stored in lesson blocks (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let url: string;
  let contentsPath: string;
  const kept = [
    { id: 'tmp-title', type: 'title', content: 'Урок со ссылками', sort_order: -2 },
    { id: 'tmp-video', type: 'video', content: { url: 'https://youtu.be/dQw4w9WgXcQ' }, sort_order: 0 },
  ];

  beforeEach(async () => {
    ctx = await createTestApp();
    author = (await clientAs(ctx, 'author')).client;
    const course = await createCourse(ctx.db, 'Ссылки', { is_published: false });
    const mod = (await author.post('/api/courses/modules', { name: 'Модуль', course_id: course, sort_order: 0 })).json()
      .result.item as { id: number };
    const lesson = (await author.post('/api/courses/lessons', { module_id: mod.id })).json().result.item as {
      id: number;
    };
    url = `/api/courses/${course}/lessons/${lesson.id}/contents`;
    contentsPath = `/api/courses/${course}/lessons/${lesson.id}`;
    expect((await author.put(url, { contents: kept })).statusCode).toBe(200);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const stored = async () => (await author.get(contentsPath)).json().result.lesson.contents as unknown[];

  const refusals = async (block: (link: string) => Record<string, unknown>) => {
    const before = await stored();
    const answers: [string, number, unknown][] = [];
    for (const link of UNSAFE_LINKS) {
      const res = await author.put(url, { contents: [...kept, { id: 'tmp-bad', sort_order: 1, ...block(link) }] });
      answers.push([link, res.statusCode, res.json()]);
    }
    expect(await stored()).toEqual(before);
    return answers;
  };

  it('refuses every unsafe video link with a Russian 422 and changes nothing', async () => {
    const message = 'Некорректная ссылка на видео: укажите адрес, начинающийся с http:// или https://';
    expect(await refusals((link) => ({ type: 'video', content: { url: link } }))).toEqual(
      UNSAFE_LINKS.map((link) => [
        link,
        422,
        { result: { success: false, message }, errors: { 'contents.2': [message] } },
      ]),
    );
  });

  it('refuses every unsafe button link with a Russian 422 and changes nothing', async () => {
    const message =
      'Некорректная ссылка кнопки: укажите адрес, начинающийся с http:// или https://, или путь на этом сайте';
    const button = (link: string) => ({ type: 'button', content: [{ title: 'Открыть', url: link }] });
    expect(await refusals(button)).toEqual(
      UNSAFE_LINKS.map((link) => [
        link,
        422,
        { result: { success: false, message }, errors: { 'contents.2': [message] } },
      ]),
    );
  });

  it('keeps http(s) links and paths of this site, with an id only for a known video host', async () => {
    const res = await author.put(url, {
      contents: [
        { id: 'a', type: 'video', content: { url: ' https://example.com/lesson.mp4 ' }, sort_order: 0 },
        { id: 'b', type: 'video', content: { url: 'http://video.example.org/watch/42' }, sort_order: 1 },
        { id: 'c', type: 'video', content: { url: '/storage/lessons/film.mp4' }, sort_order: 2 },
        { id: 'd', type: 'video', content: { url: '' }, sort_order: 3 },
        {
          id: 'e',
          type: 'button',
          content: [
            { title: 'Курс', url: '/courses/1' },
            { title: 'Сайт', url: 'https://example.com/page?x=1#top' },
          ],
          sort_order: 4,
        },
        { id: 'f', type: 'button', content: [{ title: 'Пока без ссылки', url: '' }], sort_order: 5 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const contents = res.json().result.contents as { content: unknown }[];
    expect(contents.map((b) => b.content)).toEqual([
      { url: 'https://example.com/lesson.mp4', videoId: null },
      { url: 'http://video.example.org/watch/42', videoId: null },
      { url: '/storage/lessons/film.mp4', videoId: null },
      { url: '', videoId: null },
      [
        { title: 'Курс', url: '/courses/1' },
        { title: 'Сайт', url: 'https://example.com/page?x=1#top' },
      ],
      [{ title: 'Пока без ссылки', url: '' }],
    ]);
  });

  it('keeps in lesson text only iframes whose address is exactly a player of an allowed host over https', async () => {
    const players = [
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=10',
      'https://rutube.ru/play/embed/0123456789abcdef0123456789abcdef',
      'https://vkvideo.ru/video_ext.php?oid=-5&amp;id=9',
      'https://vk.com/video_ext.php?oid=1&amp;id=2&amp;hd=2',
    ];
    const refused = [
      'http://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ/../../redirect?q=evil',
      'https://www.youtube.com/redirect?q=https://evil.example',
      'https://rutube.ru/video/0123456789abcdef0123456789abcdef/',
      'https://vk.com/away.php?to=https://evil.example',
      'https://vkvideo.ru/video_ext.php?oid=x&amp;id=9',
      'https://youtube.com.evil.example/embed/dQw4w9WgXcQ',
      '//www.youtube.com/embed/dQw4w9WgXcQ',
    ];
    const html = [...players, ...refused].map((src) => `<iframe src="${src}"></iframe>`).join('');
    const res = await author.put(url, { contents: [{ id: 't', type: 'text', content: html, sort_order: 0 }] });
    expect(res.statusCode).toBe(200);
    const saved = res.json().result.contents[0].content as string;
    const sources = [...saved.matchAll(/<iframe[^>]*src="([^"]*)"/g)].map((m) => m[1]);
    expect(sources).toEqual(players);
    expect(saved.match(/<iframe/g)).toHaveLength(players.length);
  });
});
