/**
 * The one rule for links kept in lesson blocks, used by the server when a lesson is saved and by the
 * client when a lesson is shown (docs/rules.md §Video, §Rich text):
 * - a link a learner may follow (video link, button, image) is http(s) with a host, or a path of
 *   this site ('/…'); never `javascript:`, `data:`, a scheme-relative '//host' or a backslash trick
 *   ('/\host', '\\host') that browsers read as another host;
 * - a video link of YouTube, RuTube or VK Video has an id, and its player is built from that id;
 * - an embedded player (an iframe) is exactly a player address of those hosts, over https.
 */

/** Control characters, spaces inside a link and bidirectional overrides: never part of a kept link. */
const NOT_IN_LINK =
  // eslint-disable-next-line no-control-regex -- the control characters are exactly what is refused
  /[\u0000-\u0020\u007f-\u009f\u00a0\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;
/** A base for reading a path of this site: a path that leaves it is not one. */
const SITE = 'https://site.invalid';

/**
 * The link as it may be opened, or null when it may not: an http(s) address with a host and no
 * user name or password, or a path of this site. Surrounding spaces are ignored.
 */
export function safeLink(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const link = raw.trim();
  if (link === '' || link.length > 2000 || NOT_IN_LINK.test(link) || link.includes('\\')) return null;
  if (link.startsWith('/')) {
    if (link.startsWith('//')) return null;
    try {
      return new URL(link, SITE).origin === SITE ? link : null;
    } catch {
      return null;
    }
  }
  // Only a link that names its scheme itself; 'example.com/x' would be a path relative to the page.
  if (!/^https?:\/\//i.test(link)) return null;
  try {
    const url = new URL(link);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') return null;
    if (url.username !== '' || url.password !== '') return null;
    return url.href;
  } catch {
    return null;
  }
}

/** True for a link `safeLink` keeps. */
export const isSafeLink = (raw: string | null | undefined): boolean => safeLink(raw) !== null;

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
const VK_PART = /^-?\d{1,20}$/;
const VK_ID = /^-?\d{1,20}_\d{1,20}$/;

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

/** The host and video id of a YouTube, RuTube or VK Video link; null for any other link. */
export function parseVideoLink(raw: string): VideoLink | null {
  const link = safeLink(raw);
  if (link === null || link.startsWith('/')) return null;
  const url = new URL(link);
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

/** The player address of a recognised link: the only addresses a lesson embeds. */
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

/** The player address for a typed link, or null when it has none (another host, or not a link). */
export function videoEmbedFor(raw: string): string | null {
  const link = parseVideoLink(raw);
  return link ? embedUrl(link) : null;
}

/** Hosts whose players a lesson text may embed; `isPlayerUrl` says which of their addresses. */
export const PLAYER_HOSTS = ['www.youtube.com', 'www.youtube-nocookie.com', 'rutube.ru', 'vk.com', 'vkvideo.ru'];

/**
 * True when an iframe address is exactly a player: https, no user name, port or backslash, one of
 * the player hosts, and the player's path — '/embed/{id}' (YouTube), '/play/embed/{id}' (RuTube),
 * '/video_ext.php?oid={n}&id={n}' (VK Video). Player options in the query are allowed.
 */
export function isPlayerUrl(raw: string | null | undefined): boolean {
  if (typeof raw !== 'string' || !/^https:\/\//i.test(raw.trim())) return false;
  const link = safeLink(raw);
  if (link === null) return false;
  const url = new URL(link);
  if (url.port !== '') return false;
  switch (url.hostname) {
    case 'www.youtube.com':
    case 'www.youtube-nocookie.com': {
      const id = /^\/embed\/([^/]+)$/.exec(url.pathname)?.[1];
      return id !== undefined && YOUTUBE_ID.test(id);
    }
    case 'rutube.ru': {
      const id = /^\/play\/embed\/([^/]+)\/?$/.exec(url.pathname)?.[1];
      return id !== undefined && RUTUBE_ID.test(id);
    }
    case 'vk.com':
    case 'vkvideo.ru':
      return (
        url.pathname === '/video_ext.php' &&
        VK_PART.test(url.searchParams.get('oid') ?? '') &&
        /^\d{1,20}$/.test(url.searchParams.get('id') ?? '')
      );
    default:
      return false;
  }
}
