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

  it('gives an empty text for nothing', () => {
    expect(sanitizeRichText(null)).toBe('');
  });
});
