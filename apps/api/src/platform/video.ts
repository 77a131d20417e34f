/**
 * Video links of the three hosts the product embeds (DESIGN.md §6 "Video"): YouTube, RuTube and
 * VK Video. The id found in a link is stored with it; any other link has none and gets no preview.
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
    const id =
      host === 'youtu.be'
        ? parts[0]
        : parts[0] === 'watch'
          ? url.searchParams.get('v')
          : ['embed', 'shorts', 'live', 'v'].includes(parts[0] ?? '')
            ? parts[1]
            : url.searchParams.get('v');
    return id && YOUTUBE_ID.test(id) ? { host: 'youtube', videoId: id } : null;
  }
  if (RUTUBE_HOSTS.has(host)) {
    const at = parts.findIndex((p) => p === 'video' || p === 'embed');
    const id = at >= 0 ? parts[at + 1] : undefined;
    return id && RUTUBE_ID.test(id) ? { host: 'rutube', videoId: id } : null;
  }
  if (VK_HOSTS.has(host)) {
    const fromQuery = url.searchParams.get('z')?.match(/video(-?\d+_\d+)/)?.[1];
    const fromPath = parts.join('/').match(/video(-?\d+_\d+)/)?.[1];
    const fromEmbed = url.searchParams.get('oid') && url.searchParams.get('id');
    const id =
      fromQuery ?? fromPath ?? (fromEmbed ? `${url.searchParams.get('oid')}_${url.searchParams.get('id')}` : undefined);
    return id && VK_ID.test(id) ? { host: 'vk', videoId: id } : null;
  }
  return null;
}

/** The embed address of a recognised link (the only iframes lesson text may hold). */
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

/** Iframe sources allowed in lesson text: the embed players of the three hosts. */
export const EMBED_HOSTS = ['www.youtube.com', 'www.youtube-nocookie.com', 'rutube.ru', 'vk.com', 'vkvideo.ru'];
