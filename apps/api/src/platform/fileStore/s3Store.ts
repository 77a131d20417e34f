import { randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { HttpError, MESSAGES } from '../errors.js';
import { isSafeKey, StoreUnavailable, type FileStore, type OpenedObject, type StoredObject } from './fileStore.js';

export interface S3Settings {
  bucket: string;
  /** Prepended to every key: '' or 'folder/' (from STORAGE_URL's path). */
  prefix: string;
  /** S3_ENDPOINT: Yandex Object Storage, VK Cloud, MinIO, Ceph…; unset means AWS. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /**
   * How long the bucket may stay silent (default 60 s; tests shorten it). Reads, listings and
   * deletions must have the answer's headers within it (a download's body may then flow as slowly as
   * the learner reads it); a write's part may take as long as the link needs, but no byte moving
   * either way for that long ends it. Without a limit a bucket that takes the connection and never
   * answers holds the request, and the client's sockets, for ever.
   */
  answerTimeoutMs?: number;
}

/** A connection the bucket does not accept within this is a failure (then retried by the SDK). */
const CONNECT_TIMEOUT_MS = 5_000;

/** Parts of a multipart upload: at most PART_BYTES × QUEUE bytes of an upload are held in memory. */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE = 2;

/** Counts what passes through it. */
function counter(): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

const notFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * What the SDK failed with: its errors, the service's answers and connection failures alike, carry
 * `$metadata` (the attempts made); a body that failed on its way in does not.
 */
const fromBucket = (error: unknown): boolean => typeof error === 'object' && error !== null && '$metadata' in error;

/** The bucket's failures become StoreUnavailable (a 503 for the client); a missing object stays as it is. */
const asUnavailable = (error: unknown): unknown =>
  fromBucket(error) && !notFound(error) ? new StoreUnavailable(error) : error;

/** The same for a call whose promise is awaited directly. */
const guarded = <T>(call: Promise<T>): Promise<T> =>
  call.catch((error: unknown) => {
    throw asUnavailable(error);
  });

/** A GET after the HEAD: the object removed in between (a cleanup) is a 404 for the client, not a 500. */
const ifPresent = <T>(call: Promise<T>): Promise<T> =>
  call.catch((error: unknown) => {
    throw notFound(error) ? new HttpError(404, MESSAGES.notFound) : asUnavailable(error);
  });

/**
 * Objects in an S3-compatible bucket through the AWS SDK v3. Uploads go through the SDK's managed
 * upload (a single PUT for small bodies, a multipart upload in 8 MB parts otherwise, aborted when the
 * body fails), so a 4 GB file needs some 16 MB of memory. Checksums are only sent where S3 requires
 * them: several S3-compatible services refuse the SDK's newer default ones.
 */
export class S3Store implements FileStore {
  readonly kind = 's3' as const;
  /** Reads, listings, deletions: the answer's headers within the timeout. */
  readonly client: S3Client;
  /** Uploads: an inactivity limit, since an 8 MB part over a slow link takes what it takes. */
  readonly writer: S3Client;

  constructor(private readonly settings: S3Settings) {
    const silence = settings.answerTimeoutMs ?? 60_000;
    const client = (requestHandler: {
      requestTimeout?: number;
      throwOnRequestTimeout?: boolean;
      socketTimeout?: number;
    }) =>
      new S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        credentials:
          settings.accessKeyId && settings.secretAccessKey
            ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
            : undefined,
        requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, ...requestHandler },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.client = client({ requestTimeout: silence, throwOnRequestTimeout: true });
    this.writer = client({ socketTimeout: silence });
  }

  /** Closes both clients' connections (a command or a test that is done with the bucket). */
  destroy(): void {
    this.client.destroy();
    this.writer.destroy();
  }

  get location(): string {
    return `s3://${this.settings.bucket}/${this.settings.prefix}`;
  }

  private objectKey(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
    return this.settings.prefix + key;
  }

  async write(key: string, body: Readable, options: { contentType?: string } = {}): Promise<number> {
    const Key = this.objectKey(key);
    const counted = counter();
    const upload = new Upload({
      client: this.writer,
      params: { Bucket: this.settings.bucket, Key, Body: counted, ContentType: options.contentType },
      partSize: PART_BYTES,
      queueSize: QUEUE,
      leavePartsOnError: false,
    });
    const uploaded = upload.done();
    const piped = pipeline(body, counted);
    try {
      await Promise.all([uploaded, piped]);
    } catch (error) {
      // Either side failing ends both; a multipart upload begun is aborted, leaving no parts behind.
      counted.destroy(error as Error);
      await upload.abort().catch(() => undefined);
      await Promise.allSettled([uploaded, piped]);
      throw asUnavailable(error);
    }
    return counted.bytes;
  }

  async open(key: string): Promise<OpenedObject | null> {
    if (!isSafeKey(key)) return null;
    const Key = this.objectKey(key);
    let head;
    try {
      head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key }));
    } catch (error) {
      if (notFound(error)) return null;
      throw asUnavailable(error);
    }
    return {
      size: head.ContentLength ?? 0,
      modifiedAt: head.LastModified ?? new Date(0),
      stream: async (range) => {
        const got = await ifPresent(
          this.client.send(
            new GetObjectCommand({
              Bucket: this.settings.bucket,
              Key,
              Range: range ? `bytes=${range.start}-${range.end}` : undefined,
            }),
          ),
        );
        return got.Body as Readable;
      },
    };
  }

  async remove(key: string): Promise<void> {
    if (!isSafeKey(key)) return;
    await guarded(
      this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) })),
    );
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await guarded(
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.settings.bucket,
            Prefix: this.settings.prefix + prefix,
            ContinuationToken: token,
          }),
        ),
      );
      for (const item of page.Contents ?? []) {
        if (!item.Key) continue;
        const key = item.Key.slice(this.settings.prefix.length);
        if (isSafeKey(key)) yield { key, size: item.Size ?? 0, modifiedAt: item.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async probe(): Promise<void> {
    const Key = this.objectKey(`storage/.probe/${randomBytes(8).toString('hex')}`);
    const Bucket = this.settings.bucket;
    await this.client.send(new PutObjectCommand({ Bucket, Key, Body: 'ok' }));
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket, Key }));
      if ((await got.Body?.transformToString()) !== 'ok') throw new Error('The bucket gave back other bytes');
    } finally {
      await this.client.send(new DeleteObjectCommand({ Bucket, Key }));
    }
  }
}
