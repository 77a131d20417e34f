/**
 * Video links of the three hosts the product embeds (DESIGN.md §6 "Video"): YouTube, RuTube and
 * VK Video. A mirror of the server's apps/api/src/platform/video.ts, so that the constructor shows a
 * preview for exactly the links the server stores with a `videoId`; any other link gets none.
 */
export interface VideoLink {
  host: 'youtube' | 'rutube' | 'vk';
  videoId: string;
}

const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'youtu.be',
  'www.youtube-nocookie.com',
]);
const RUTUBE_HOSTS = new Set(['rutube.ru', 'www.rutube.ru']);
const VK_HOSTS = new Set(['vk.com', 'www.vk.com', 'm.vk.com', 'vkvideo.ru', 'www.vkvideo.ru', 'm.vkvideo.ru']);

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const RUTUBE_ID = /^[a-f0-9]{32}$/;
const VK_ID = /^-?\d+_\d+$/;

function youtubeId(host: string, url: URL, parts: string[]): string | null | undefined {
  if (host === 'youtu.be') return parts[0];
  if (parts[0] === 'watch') return url.searchParams.get('v');
  if (['embed', 'shorts', 'live', 'v'].includes(parts[0] ?? '')) return parts[1];
  return url.searchParams.get('v');
}

function vkId(url: URL, parts: string[]): string | undefined {
  const fromQuery = url.searchParams.get('z')?.match(/video(-?\d+_\d+)/)?.[1];
  const fromPath = parts.join('/').match(/video(-?\d+_\d+)/)?.[1];
  const oid = url.searchParams.get('oid');
  const id = url.searchParams.get('id');
  return fromQuery ?? fromPath ?? (oid && id ? `${oid}_${id}` : undefined);
}

/** The host and video id of a YouTube, RuTube or VK Video link; null for anything else. */
export function parseVideoLink(raw: string): VideoLink | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  if (YOUTUBE_HOSTS.has(host)) {
    const id = youtubeId(host, url, parts);
    return id && YOUTUBE_ID.test(id) ? { host: 'youtube', videoId: id } : null;
  }
  if (RUTUBE_HOSTS.has(host)) {
    const at = parts.findIndex((p) => p === 'video' || p === 'embed');
    const id = at >= 0 ? parts[at + 1] : undefined;
    return id && RUTUBE_ID.test(id) ? { host: 'rutube', videoId: id } : null;
  }
  if (VK_HOSTS.has(host)) {
    const id = vkId(url, parts);
    return id && VK_ID.test(id) ? { host: 'vk', videoId: id } : null;
  }
  return null;
}

/** The player address of a recognised link (the same embed addresses the server allows). */
export function embedUrl(link: VideoLink): string {
  switch (link.host) {
    case 'youtube':
      return `https://www.youtube.com/embed/${link.videoId}`;
    case 'rutube':
      return `https://rutube.ru/play/embed/${link.videoId}`;
    case 'vk': {
      const [oid, id] = link.videoId.split('_');
      return `https://vkvideo.ru/video_ext.php?oid=${oid}&id=${id}`;
    }
  }
}

/** The player address for a typed link, or null when it gets no preview. */
export function videoEmbedFor(raw: string): string | null {
  const link = parseVideoLink(raw);
  return link ? embedUrl(link) : null;
}
