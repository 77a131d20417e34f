import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Settings } from '../platform/fileStore/s3Store.js';

const require = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface RunningS3 {
  /** The settings of an S3Store on this server's bucket (path style, its own credentials). */
  settings: S3Settings;
  /** The same as STORAGE_URL / S3_* variables, for spawned servers and commands. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3 server (the `s3rver` package: the S3 REST protocol over HTTP, objects in a temporary
 * folder) on a free port of 127.0.0.1, with one bucket; the tests talk to it through the AWS SDK.
 */
export async function startS3Server(bucket = 'lms-test', prefix = 'company/'): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 'lms-s3-'));
  const S3rver = require('s3rver') as S3rverClass;
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials; any other pair is refused as a real service would.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    settings: { bucket, prefix, endpoint, region: 'us-east-1', accessKeyId, secretAccessKey, forcePathStyle: true },
    env: {
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
