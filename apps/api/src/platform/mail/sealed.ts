import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The content of a queued mail, without what the log shows in the clear (recipient, subject). */
export interface MailBody {
  html: string;
  text: string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals queued mails' content in the database (AES-256-GCM, a key derived from the app secret): a
 * welcome or reset mail holds a password until it is delivered, and a copy of the database or a
 * backup must not give it away. The content is compressed first (mails are mostly markup) and is
 * cleared once the mail is sent. Every process sharing the database shares APP_SECRET already.
 */
export class MailSealer {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHmac('sha256', secret).update('mail-outbox-body').digest();
  }

  seal(body: MailBody): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const packed = deflateRawSync(Buffer.from(JSON.stringify([body.html, body.text]), 'utf8'), { level: 1 });
    const sealed = Buffer.concat([cipher.update(packed), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** Throws when the text was sealed with another secret or altered. */
  open(sealed: string): MailBody {
    const [version, data] = sealed.split('.', 2);
    if (version !== VERSION || data === undefined) throw new Error('unknown sealed mail format');
    const raw = Buffer.from(data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const packed = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    const [html, text] = JSON.parse(inflateRawSync(packed).toString('utf8')) as [string, string];
    return { html, text };
  }
}
