import { describe, expect, it } from 'vitest';
import { s3PublicBase } from './s3.ts';
import { screenshotKey } from './index.ts';

describe('s3PublicBase', () => {
  const base = { bucket: 'shots', region: 'eu-west-1', forcePathStyle: false };
  it('prefers the configured public URL', () => {
    expect(s3PublicBase({ ...base, endpoint: 'http://minio:9000', publicUrl: 'https://cdn.example.com/shots/' })).toBe('https://cdn.example.com/shots');
  });
  it('derives path-style and virtual-host URLs from the endpoint', () => {
    expect(s3PublicBase({ ...base, endpoint: 'http://127.0.0.1:4569', forcePathStyle: true })).toBe('http://127.0.0.1:4569/shots');
    expect(s3PublicBase({ ...base, endpoint: 'https://s3.example.net' })).toBe('https://shots.s3.example.net');
  });
  it('falls back to AWS virtual-host addressing', () => {
    expect(s3PublicBase(base)).toBe('https://shots.s3.eu-west-1.amazonaws.com');
  });
});

describe('screenshotKey', () => {
  it('dates the key in UTC', () => {
    expect(screenshotKey('0b8e3c52-4d55-4a8e-9a43-2f0a1c9e7d10', 'webp', new Date('2025-03-01T23:30:00-05:00'))).toBe(
      'screenshots/2025-03-02/0b8e3c52-4d55-4a8e-9a43-2f0a1c9e7d10.webp',
    );
  });
});
