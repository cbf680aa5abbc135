/** Where screenshots go: S3 when a bucket is configured, else a local directory the edge serves. */
import type { RendererConfig } from '../config.ts';
import { createLocalStore } from './local.ts';
import type { ScreenshotStore } from './port.ts';
import { createS3Store } from './s3.ts';

export type { ScreenshotStore } from './port.ts';

/** `screenshots/<yyyy-mm-dd>/<requestId>.<ext>`, dated in UTC. */
export function screenshotKey(requestId: string, ext: string, at: Date): string {
  return `screenshots/${at.toISOString().slice(0, 10)}/${requestId}.${ext}`;
}

export function createScreenshotStore(config: RendererConfig): ScreenshotStore {
  if (config.S3_BUCKET) {
    return createS3Store({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      publicUrl: config.S3_PUBLIC_URL,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return createLocalStore({ dir: config.SCREENSHOT_DIR, baseUrl: config.ASSETS_BASE_URL });
}
