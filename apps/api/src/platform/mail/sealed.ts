import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

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
 * backup must not give it away. It is cleared once the mail is sent. Not compressed: deflating a
 * mass pass's 10 000 mails cost twice the sealing for half the bytes. Every process sharing the
 * database shares APP_SECRET already.
 */
export class MailSealer {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHmac('sha256', secret).update('mail-outbox-body').digest();
  }

  seal(body: MailBody): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const plain = Buffer.from(JSON.stringify([body.html, body.text]), 'utf8');
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** Throws when the text was sealed with another secret or altered. */
  open(sealed: string): MailBody {
    const [version, data] = sealed.split('.', 2);
    if (version !== VERSION || data === undefined) throw new Error('unknown sealed mail format');
    const raw = Buffer.from(data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    const [html, text] = JSON.parse(plain.toString('utf8')) as [string, string];
    return { html, text };
  }
}
