import fs from 'node:fs/promises';
import path from 'node:path';
import type { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';

/**
 * Where car photos' files are kept (decision 085): a folder under DATA_DIR by default, or any
 * S3-compatible bucket when one is configured. Keys are relative paths made by the photos
 * service (`cars/<VIN>/<file>`), never from a request's raw text.
 */
export interface PhotoStorage {
  readonly kind: 'disk' | 's3';
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the files; a missing one is not an error. */
  remove(keys: readonly string[]): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9]+(\/[A-Za-z0-9._-]+)*$/;

function checkKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Not a photo storage key: ${key}`);
  return key;
}

/** Photos as files in a folder (DATA_DIR/photos unless told), written whole then renamed into place. */
export class DiskPhotoStorage implements PhotoStorage {
  readonly kind = 'disk';
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.part`;
    await fs.writeFile(partial, bytes);
    await fs.rename(partial, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((k) => fs.rm(this.file(k), { force: true })));
  }
}

/** What the S3 adapter needs of a client: to send a command (the SDK's S3Client, or a test's fake). */
export interface S3Like {
  send(command: PutObjectCommand | GetObjectCommand | DeleteObjectsCommand): Promise<unknown>;
}

export interface S3Settings {
  bucket: string;
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Path-style addresses (bucket in the path), as most S3-compatible services want. */
  forcePathStyle: boolean;
  /** A folder inside the bucket. */
  prefix: string;
}

/** The S3 SDK, loaded the first time a bucket is used: an app keeping photos on disk never loads it. */
let sdk: Promise<typeof import('@aws-sdk/client-s3')> | undefined;
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));

/** Photos as objects in an S3-compatible bucket. */
export class S3PhotoStorage implements PhotoStorage {
  readonly kind = 's3';
  private client: S3Like | undefined;
  constructor(
    private readonly settings: S3Settings,
    client?: S3Like,
  ) {
    this.client = client;
  }

  private async send(make: (s3: typeof import('@aws-sdk/client-s3')) => Parameters<S3Like['send']>[0]) {
    const s3 = await loadSdk();
    const { settings } = this;
    this.client ??= new s3.S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
    return this.client.send(make(s3));
  }

  private objectKey(key: string): string {
    return `${this.settings.prefix}${checkKey(key)}`;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.send(
      (s3) =>
        new s3.PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          Body: bytes,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const out = (await this.send(
        (s3) => new s3.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      )) as { Body?: { transformToByteArray(): Promise<Uint8Array> } };
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound') return null;
      throw err;
    }
  }

  async remove(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.send(
      (s3) =>
        new s3.DeleteObjectsCommand({
          Bucket: this.settings.bucket,
          Delete: { Objects: keys.map((k) => ({ Key: this.objectKey(k) })), Quiet: true },
        }),
    );
  }
}

/** The configured storage: the bucket when PHOTO_S3_BUCKET is set, else the folder under DATA_DIR. */
export function photoStorageFor(config: { dataDir: string; photoS3: S3Settings | null }): PhotoStorage {
  return config.photoS3
    ? new S3PhotoStorage(config.photoS3)
    : new DiskPhotoStorage(path.join(config.dataDir, 'photos'));
}
