import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ScreenshotStore } from './port.ts';

export interface S3StoreOptions {
  bucket: string;
  endpoint?: string | undefined;
  region: string;
  forcePathStyle: boolean;
  publicUrl?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/** Public URL base of the bucket: explicit, else derived from endpoint + addressing style, else AWS. */
export function s3PublicBase(opts: S3StoreOptions): string {
  if (opts.publicUrl) return opts.publicUrl.replace(/\/+$/, '');
  if (opts.endpoint) {
    const u = new URL(opts.endpoint);
    const path = u.pathname.replace(/\/+$/, '');
    if (opts.forcePathStyle) return `${u.protocol}//${u.host}${path}/${opts.bucket}`;
    return `${u.protocol}//${opts.bucket}.${u.host}${path}`;
  }
  return `https://${opts.bucket}.s3.${opts.region}.amazonaws.com`;
}

export function createS3Store(opts: S3StoreOptions): ScreenshotStore {
  const client = new S3Client({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    forcePathStyle: opts.forcePathStyle,
    ...(opts.accessKeyId && opts.secretAccessKey ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } } : {}),
    // s3rver and some S3-compatible servers mangle the default streamed (aws-chunked) checksummed uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const base = s3PublicBase(opts);
  return {
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: opts.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
      return `${base}/${key}`;
    },
    async close() {
      client.destroy();
    },
  };
}
