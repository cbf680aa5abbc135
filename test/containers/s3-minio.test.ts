/**
 * Screenshots through the S3 protocol against the MinIO image docker-compose.yml deploys, with the
 * bucket policy minio-init applies: the renderer's client settings can put and get an object, and
 * anyone can GET a screenshot by its URL but nobody can list the bucket anonymously.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutBucketPolicyCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeImage, containerRuntimeProblem } from './runtime.ts';

const problem = await containerRuntimeProblem();
if (problem) console.warn(`[containers] S3 through MinIO skipped: ${problem}`);

// The smallest valid PNG: 1x1, one opaque pixel.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const BUCKET = 'screenshots';
const ROOT = { accessKeyId: 'enrich-admin', secretAccessKey: 'enrich-admin-secret' };

describe.skipIf(problem !== undefined)(problem ? `S3 through MinIO (skipped: ${problem})` : 'S3 through MinIO', () => {
  let endpoint = '';
  let s3: S3Client;
  let stop: () => Promise<unknown> = async () => undefined;

  beforeAll(async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer(composeImage('minio'))
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: ROOT.accessKeyId, MINIO_ROOT_PASSWORD: ROOT.secretAccessKey })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start();
    stop = () => container.stop();
    endpoint = `http://${container.getHost()}:${container.getMappedPort(9000)}`;
    s3 = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: ROOT,
      // SDK v3 checksums by default since 2025; S3-compatible servers do not all accept them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const policy = readFileSync(join(import.meta.dirname, '..', '..', 'deploy/docker/minio/screenshots-public-read.json'), 'utf8');
    await s3.send(new PutBucketPolicyCommand({ Bucket: BUCKET, Policy: policy }));
  });

  afterAll(async () => {
    s3?.destroy();
    await stop();
  });

  it('puts a screenshot and reads the same bytes back', async () => {
    const key = `2026/01/01/${randomUUID()}.png`;
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: PNG, ContentType: 'image/png' }));
    const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(got.ContentType).toBe('image/png');
    expect(Buffer.from(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray())).toEqual(PNG);
  });

  it('serves a screenshot to anyone by its URL, and lists the bucket to nobody', async () => {
    const key = `${randomUUID()}.png`;
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: PNG, ContentType: 'image/png' }));
    const anonymous = await fetch(`${endpoint}/${BUCKET}/${key}`);
    expect(anonymous.status).toBe(200);
    expect(Buffer.from(await anonymous.arrayBuffer())).toEqual(PNG);
    expect((await fetch(`${endpoint}/${BUCKET}/?list-type=2`)).status).toBe(403);
  });
});
