import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { resizePhoto } from './images.ts';

describe('resizing an uploaded photo (decision 085)', () => {
  it('turns a phone photo upright, keeps no metadata, and never enlarges it', async () => {
    // 1200 × 600 stored, EXIF orientation 6: the phone was held upright, so the photo is 600 × 1200.
    const upload = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#369' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const photo = await resizePhoto(upload);
    expect(photo).toMatchObject({ width: 600, height: 1200 });
    const sizes = await Promise.all(photo.files.map(async (f) => [f.width, await sharp(f.bytes).metadata()] as const));
    for (const [width, meta] of sizes) {
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation ?? 1).toBe(1);
      // Upright: taller than wide, at most the upload's 600 pixels across.
      expect(meta.width).toBe(Math.min(width, 600));
      expect(meta.height).toBe(meta.width * 2);
    }
  });

  it('refuses what is not an image, and a damaged one, with a 4xx', async () => {
    await expect(resizePhoto(Buffer.from('not a photo'))).rejects.toMatchObject({ statusCode: 400 });
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    await expect(resizePhoto(jpeg.subarray(0, 400))).rejects.toMatchObject({ statusCode: 422 });
  });
});
