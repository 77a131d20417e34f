import DOMPurify from 'dompurify';

/** The player addresses a lesson text may embed (DESIGN.md §6 "Rich text", "Video"). */
const PLAYER_PREFIXES = [
  'https://www.youtube.com/embed/',
  'https://www.youtube-nocookie.com/embed/',
  'https://rutube.ru/play/embed/',
  'https://vkvideo.ru/video_ext.php',
  'https://vk.com/video_ext.php',
];

const CONFIG = {
  ADD_TAGS: ['iframe'],
  ADD_ATTR: ['allow', 'allowfullscreen', 'frameborder', 'target'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
};

/**
 * A lesson text sanitized again on render (DESIGN.md §6 "Rich text"): DOMPurify's allow-list (no
 * script, no event handlers, no `javascript:` links), and iframes only from the video hosts.
 */
export function sanitizeRichText(html: string | null | undefined): string {
  const clean = DOMPurify.sanitize(html ?? '', CONFIG);
  if (!clean.includes('<iframe')) return clean;
  const template = document.createElement('template');
  template.innerHTML = clean;
  for (const frame of Array.from(template.content.querySelectorAll('iframe'))) {
    const src = frame.getAttribute('src') ?? '';
    if (!PLAYER_PREFIXES.some((prefix) => src.startsWith(prefix))) frame.remove();
  }
  return template.innerHTML;
}
