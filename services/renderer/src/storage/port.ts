/** What a screenshot store does; the stores (local.ts, s3.ts) and the factory (index.ts) share it. */
export interface ScreenshotStore {
  /** Stores the bytes under `key` and returns the public URL that serves them. */
  put(key: string, body: Buffer, contentType: string): Promise<string>;
  close(): Promise<void>;
}
