import { isPlayerUrl } from '@lms/contract';
import DOMPurify from 'dompurify';

const CONFIG = {
  ADD_TAGS: ['iframe'],
  ADD_ATTR: ['allow', 'allowfullscreen', 'frameborder', 'target'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
};

/**
 * '//host', '/\host', '\\host': addresses a browser reads as another host's rather than as paths of
 * this site. Browsers drop tabs and line breaks anywhere in an address and leading spaces, so those
 * are dropped first.
 */
function leadsOffSite(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- the control characters are what browsers ignore
  const address = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  return address.startsWith('//') || address.includes('\\');
}

/**
 * A lesson text sanitized again on render (docs/rules.md §Rich text): DOMPurify's allow-list (no
 * script, no event handlers, no `javascript:` links), link and picture addresses that only look like
 * paths of this site dropped, and iframes only when their address is exactly a player (the
 * contract's `isPlayerUrl`, as on the server).
 */
export function sanitizeRichText(html: string | null | undefined): string {
  const clean = DOMPurify.sanitize(html ?? '', CONFIG);
  if (!/<iframe|href=|src=/.test(clean)) return clean;
  const template = document.createElement('template');
  template.innerHTML = clean;
  for (const frame of Array.from(template.content.querySelectorAll('iframe'))) {
    if (!isPlayerUrl(frame.getAttribute('src'))) frame.remove();
  }
  for (const element of Array.from(template.content.querySelectorAll('[href], [src]'))) {
    for (const name of ['href', 'src']) {
      const value = element.getAttribute(name);
      if (value !== null && leadsOffSite(value)) element.removeAttribute(name);
    }
  }
  return template.innerHTML;
}
