import sanitizeHtml from 'sanitize-html';
import { PLAYER_HOSTS, isPlayerUrl } from '@lms/contract';

/**
 * Lesson text HTML is cleaned on save with an allow-list (docs/rules.md §Rich text): formatting,
 * lists, links, tables, images and headings stay; scripts, styles, event handlers, `javascript:` and
 * `data:` links go; an iframe stays only when its address is exactly a player of YouTube, RuTube or
 * VK Video over https (the contract's `isPlayerUrl`, which the lesson page applies again).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'sub',
    'sup',
    'mark',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'span',
    'div',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'iframe',
  ],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    iframe: ['src', 'width', 'height', 'allowfullscreen', 'frameborder', 'allow'],
    span: ['style'],
    p: ['style'],
    h1: ['style'],
    h2: ['style'],
    h3: ['style'],
    h4: ['style'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    '*': ['class'],
  },
  allowedStyles: {
    '*': {
      'text-align': [/^(left|right|center|justify)$/],
      color: [/^#[0-9a-f]{3,8}$/i, /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: PLAYER_HOSTS,
  allowIframeRelativeUrls: false,
  // The host list lets any page of those sites in (and over http); only their players may stay.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !isPlayerUrl(frame.attribs.src),
  transformTags: {
    // Links open in a new tab without giving the opened page a handle on the course.
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }),
  },
};

export const sanitizeLessonHtml = (html: string): string => sanitizeHtml(html, OPTIONS);
