/**
 * The subject and plain text of a mail as an SMTP server received it (nodemailer's MIME: encoded-word
 * headers, a multipart/alternative body whose text part is base64 or quoted-printable), so that a test
 * reads a mailed password as its recipient would.
 */
export function mailText(raw: string): { subject: string; text: string } {
  const { headers, body } = split(raw);
  const subject = decodeWords(headers.get('subject') ?? '');
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) return { subject, text: decodeBody(body, headers.get('content-transfer-encoding')) };
  for (const part of body.split(`--${boundary}`)) {
    const p = split(part.replace(/^\r?\n/, ''));
    if (/^text\/plain/i.test(p.headers.get('content-type') ?? '')) {
      return { subject, text: decodeBody(p.body, p.headers.get('content-transfer-encoding')) };
    }
  }
  return { subject, text: '' };
}

/** Headers (names lower-cased, folded lines joined) and the body after the first empty line. */
function split(raw: string): { headers: Map<string, string>; body: string } {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? '' : text.slice(end + 2) };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind === 'quoted-printable') return quotedPrintable(body.replace(/=\n/g, ''));
  return body;
}

function quotedPrintable(text: string): string {
  return quotedPrintableBytes(text).toString('utf8');
}

function quotedPrintableBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes);
}

const WORD = String.raw`=\?[^?]+\?[BQ]\?[^?]*\?=`;

/**
 * RFC 2047 words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=). The space between two words is not text, and a
 * character may be split across two words, so adjacent words are joined as bytes before decoding.
 */
function decodeWords(value: string): string {
  return value.replace(new RegExp(`${WORD}(?:\\s+${WORD})*`, 'gi'), (run) => {
    const bytes = [...run.matchAll(/=\?[^?]+\?([BQ])\?([^?]*)\?=/gi)].map(([, kind = '', data = '']) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : quotedPrintableBytes(data.replace(/_/g, ' ')),
    );
    return Buffer.concat(bytes).toString('utf8');
  });
}
