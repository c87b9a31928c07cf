import sharp, { type Metadata } from 'sharp';
import {
  PHOTO_FORMATS,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_PIXELS,
  PHOTO_WIDTHS,
  type PhotoFormat,
  type PhotoWidth,
} from '@ampere/domain/photos';
import { AppError, invalid, unprocessable } from '../../http/errors.ts';

/** One photo made ready for the renter pages: the upload's size, and each width's WebP. */
export interface ResizedPhoto {
  width: number;
  height: number;
  files: { width: PhotoWidth; bytes: Buffer }[];
}

const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Reads an upload and resizes it (decision 085), or refuses it with a 4xx naming what is wrong:
 * empty or too large a file, not an image, a format we do not take, or more pixels than a photo
 * has (a decompression bomb is refused from its header, before it is decoded). The photo is turned
 * upright by its EXIF orientation and kept without its metadata (a phone's location included).
 */
export async function resizePhoto(bytes: Buffer): Promise<ResizedPhoto> {
  if (bytes.length === 0) throw invalid('The photo is empty: choose an image file to upload.', 'body');
  if (bytes.length > PHOTO_MAX_BYTES)
    throw new AppError(
      'UNPROCESSABLE',
      `The photo is ${megabytes(bytes.length)}; a photo may be at most ${megabytes(PHOTO_MAX_BYTES)}.`,
      'body',
    );
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalid('The file is not an image we can read: upload a JPEG, PNG, WebP or AVIF photo.', 'body');
  }
  const format = (meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format) as string;
  if (!(PHOTO_FORMATS as readonly string[]).includes(format))
    throw invalid(
      `Photos in ${format.toUpperCase()} format are not taken: upload a JPEG, PNG, WebP or AVIF photo.`,
      'body',
    );
  const { width = 0, height = 0 } = meta;
  if (width * height > PHOTO_MAX_PIXELS)
    throw unprocessable(
      `The photo is ${width} × ${height} pixels; a photo may have at most ${PHOTO_MAX_PIXELS / 1_000_000} megapixels.`,
      'body',
    );
  if (width < 1 || height < 1) throw invalid('The image has no pixels.', 'body');
  const upright = (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
  try {
    // Decoded once, upright, at the largest width kept; each width is made from that.
    const largest = Math.max(...PHOTO_WIDTHS);
    const { data, info } = await sharp(bytes, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: largest, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const files = await Promise.all(
      PHOTO_WIDTHS.map(async (w) => ({
        width: w,
        bytes: await sharp(data, { raw })
          .resize({ width: w, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer(),
      })),
    );
    return { ...upright, files };
  } catch {
    throw unprocessable(
      `The ${format.toUpperCase() as Uppercase<PhotoFormat>} file is damaged and could not be read: export it again and upload that.`,
      'body',
    );
  }
}
