import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from './richText';

describe('sanitizeRichText', () => {
  it('keeps formatting and drops scripts, handlers and javascript: links', () => {
    const html = sanitizeRichText(
      '<p><b>Жирный</b><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">ссылка</a></p>',
    );
    expect(html).toContain('<b>Жирный</b>');
    expect(html).not.toContain('script');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('javascript:');
  });

  it('keeps iframes of the video hosts only', () => {
    const html = sanitizeRichText(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe><iframe src="https://evil.example/x"></iframe>',
    );
    expect(html).toContain('https://www.youtube.com/embed/dQw4w9WgXcQ');
    expect(html).not.toContain('evil.example');
  });

  it('keeps an iframe only when its address is exactly a player over https', () => {
    const players = [
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://rutube.ru/play/embed/0123456789abcdef0123456789abcdef',
      'https://vkvideo.ru/video_ext.php?oid=-5&amp;id=9',
    ];
    const refused = [
      'http://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/../redirect?q=https://evil.example',
      'https://www.youtube.com/embed/dQw4w9WgXcQ/../../redirect?q=evil',
      'https://vk.com/video_ext.php/../away.php?to=https://evil.example',
      'https://vkvideo.ru/video_ext.php@evil.example/',
      'https://www.youtube.com/embed/dQw4w9WgXcQ:8443',
    ];
    const html = sanitizeRichText([...players, ...refused].map((src) => `<iframe src="${src}"></iframe>`).join(''));
    expect([...html.matchAll(/<iframe[^>]*src="([^"]*)"/g)].map((m) => m[1])).toEqual(players);
  });

  it('drops link and picture addresses that lead to another host by a slash trick', () => {
    const html = sanitizeRichText(
      '<a href="/\\evil.example">a</a><a href="\\\\evil.example">b</a><a href="//evil.example">c</a><img src="/\\evil.example/x.png" alt="x"><a href="/courses/1">d</a>',
    );
    expect(html).not.toContain('evil.example');
    expect(html).toContain('href="/courses/1"');
  });

  it('gives an empty text for nothing', () => {
    expect(sanitizeRichText(null)).toBe('');
  });
});
