import { describe, expect, it } from 'vitest';
import { embedUrl, parseVideoLink, videoEmbedFor } from '@lms/contract';

// The contract's video-link rule (packages/contract/src/links.ts), the one the server applies when a
// lesson is saved: the constructor previews and the lesson page embeds exactly these links.

describe('parseVideoLink (the contract rule the client uses)', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=10', 'youtube', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['https://rutube.ru/video/0123456789abcdef0123456789abcdef/', 'rutube', '0123456789abcdef0123456789abcdef'],
    ['https://rutube.ru/play/embed/0123456789abcdef0123456789abcdef', 'rutube', '0123456789abcdef0123456789abcdef'],
    ['https://vk.com/video-12345_678', 'vk', '-12345_678'],
    ['https://vk.com/videos?z=video-1_2%2Fpl', 'vk', '-1_2'],
    ['https://vkvideo.ru/video_ext.php?oid=-5&id=9', 'vk', '-5_9'],
  ])('%s → %s %s', (url, host, videoId) => {
    expect(parseVideoLink(url)).toEqual({ host, videoId });
  });

  it.each([
    '',
    'не ссылка',
    'javascript:alert(1)',
    'https://vimeo.com/123',
    'https://www.youtube.com/watch?v=short',
    'https://rutube.ru/video/NOTHEX/',
    'ftp://youtu.be/dQw4w9WgXcQ',
  ])('no preview for %j', (url) => {
    expect(parseVideoLink(url)).toBeNull();
    expect(videoEmbedFor(url)).toBeNull();
  });

  it('builds the embed addresses', () => {
    expect(embedUrl({ host: 'youtube', videoId: 'dQw4w9WgXcQ' })).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    expect(embedUrl({ host: 'rutube', videoId: 'ab' })).toBe('https://rutube.ru/play/embed/ab');
    expect(embedUrl({ host: 'vk', videoId: '-1_2' })).toBe('https://vkvideo.ru/video_ext.php?oid=-1&id=2');
  });
});
