import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { DiskPhotoStorage, S3PhotoStorage, type S3Like, photoStorageFor } from './storage.ts';

/** An S3-compatible service in memory: what the adapter sends, and objects kept by key. */
function fakeS3() {
  const objects = new Map<string, { body: Buffer; contentType?: string; cacheControl?: string }>();
  const sent: string[] = [];
  const client: S3Like = {
    send: async (command) => {
      const input = command.input as unknown as Record<string, unknown>;
      sent.push(`${command.constructor.name} ${String(input.Bucket)}`);
      if (command instanceof PutObjectCommand) {
        objects.set(String(input.Key), {
          body: input.Body as Buffer,
          contentType: input.ContentType as string,
          cacheControl: input.CacheControl as string,
        });
        return {};
      }
      if (command instanceof GetObjectCommand) {
        const found = objects.get(String(input.Key));
        if (!found) throw Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey' });
        return { Body: { transformToByteArray: async () => new Uint8Array(found.body) } };
      }
      if (command instanceof DeleteObjectsCommand) {
        for (const o of (input.Delete as { Objects: { Key: string }[] }).Objects) objects.delete(o.Key);
        return {};
      }
      throw new Error('unexpected command');
    },
  };
  return { client, objects, sent };
}

const settings = {
  bucket: 'car-photos',
  endpoint: 'https://objects.example.test',
  region: 'auto',
  accessKeyId: 'id',
  secretAccessKey: 'secret',
  forcePathStyle: true,
  prefix: 'photos/',
};

describe('car photos in an S3-compatible bucket (decision 085)', () => {
  it('puts each file under the prefix with its type and a year-long cache, reads it back, and removes it', async () => {
    const s3 = fakeS3();
    const storage = new S3PhotoStorage(settings, s3.client);
    await storage.put('cars/VIN1/moneyshot-abc-960.webp', Buffer.from('webp bytes'), 'image/webp');
    expect(s3.objects.get('photos/cars/VIN1/moneyshot-abc-960.webp')).toMatchObject({
      contentType: 'image/webp',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect((await storage.get('cars/VIN1/moneyshot-abc-960.webp'))?.toString()).toBe('webp bytes');
    expect(await storage.get('cars/VIN1/missing.webp')).toBeNull();
    await storage.remove(['cars/VIN1/moneyshot-abc-960.webp']);
    expect(s3.objects.size).toBe(0);
    expect(s3.sent.every((s) => s.endsWith(' car-photos'))).toBe(true);
  });

  it('refuses a key that could leave its folder', async () => {
    const storage = new S3PhotoStorage(settings, fakeS3().client);
    await expect(storage.put('../secrets', Buffer.from(''), 'image/webp')).rejects.toThrow('Not a photo storage key');
  });

  it('is configured by PHOTO_S3_* settings, whose keys come in pairs', () => {
    const config = loadConfig({
      PHOTO_S3_BUCKET: 'car-photos',
      PHOTO_S3_ENDPOINT: 'https://objects.example.test',
      PHOTO_S3_ACCESS_KEY_ID: 'id',
      PHOTO_S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.photoS3).toMatchObject({
      bucket: 'car-photos',
      region: 'us-east-1',
      forcePathStyle: true,
      prefix: '',
    });
    expect(loadConfig({}).photoS3).toBeNull();
    expect(() => loadConfig({ PHOTO_S3_BUCKET: 'b', PHOTO_S3_ACCESS_KEY_ID: 'id' })).toThrow(
      'PHOTO_S3_ACCESS_KEY_ID and PHOTO_S3_SECRET_ACCESS_KEY must be set together',
    );
    expect(() => loadConfig({ PHOTO_S3_ENDPOINT: 'https://objects.example.test' })).toThrow('need PHOTO_S3_BUCKET');
  });

  it('is chosen when a bucket is configured; a folder under DATA_DIR otherwise', () => {
    expect(photoStorageFor({ dataDir: '/tmp/x', photoS3: settings }).kind).toBe('s3');
    expect(photoStorageFor({ dataDir: '/tmp/x', photoS3: null }).kind).toBe('disk');
  });
});

describe('car photos on disk', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'photo-disk-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('writes, reads and removes files inside its folder only', async () => {
    const storage = new DiskPhotoStorage(root);
    await storage.put('cars/VIN2/dash-v1-480.webp', Buffer.from('x'));
    expect(fs.readFileSync(path.join(root, 'cars/VIN2/dash-v1-480.webp'), 'utf8')).toBe('x');
    expect((await storage.get('cars/VIN2/dash-v1-480.webp'))?.toString()).toBe('x');
    await storage.remove(['cars/VIN2/dash-v1-480.webp', 'cars/VIN2/never-was.webp']);
    expect(await storage.get('cars/VIN2/dash-v1-480.webp')).toBeNull();
    await expect(storage.get('cars/../../etc/passwd')).rejects.toThrow('Not a photo storage key');
  });
});
