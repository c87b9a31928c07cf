import type { ImageView } from './constants.ts';

/** What each photo shows, in words: the photo's description for screen readers. */
export const IMAGE_VIEW_NAMES: Record<ImageView, string> = {
  MONEYSHOT: 'front three-quarter view',
  FRONT: 'front',
  L_SIDE: 'left side',
  RR_CORNER: 'rear three-quarter view',
  REAR: 'rear',
  R_SIDE: 'right side',
  DASH: 'dashboard',
  RF_INTERIOR: 'front seats',
  HEADLIGHT: 'headlight',
  WHEEL: 'wheel',
  TAILLIGHT: 'tail light',
};

/** The car page's main photo (spec 2, vehicle page): the MONEYSHOT view, else the first photo there is. */
export function mainPhoto<T extends { view: ImageView }>(images: readonly T[]): T | undefined {
  return images.find((i) => i.view === 'MONEYSHOT') ?? images[0];
}

/**
 * A car's own photos (decision 085): the files staff may upload, and what the renter pages are
 * given. A photo is kept in three widths of WebP — a card or phone, the car page's main photo, the
 * full-screen gallery — and the pages are given the middle one; the others are for a srcset.
 */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** The most pixels a photo may decode to: 50 megapixels, more than any phone takes, fewer than a decompression bomb. */
export const PHOTO_MAX_PIXELS = 50_000_000;
/** The image formats a photo may be uploaded in (a phone's JPEG, a screenshot's PNG, WebP and AVIF). */
export const PHOTO_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];
/** The widths each photo is kept in, in pixels; none is made wider than the upload. */
export const PHOTO_WIDTHS = [480, 960, 1600] as const;
export type PhotoWidth = (typeof PHOTO_WIDTHS)[number];
/** The width renter pages are given as a photo's address. */
export const PHOTO_DEFAULT_WIDTH: PhotoWidth = 960;

/** Where a car's photo of `view`, at `version`, in `width` pixels, is served. */
export function carPhotoPath(vin: string, view: ImageView, version: string, width: PhotoWidth): string {
  return `/media/cars/${vin}/${view.toLowerCase()}-${version}-${width}.webp`;
}

/** The `srcset` of a car's photo: every width kept, for the browser to pick from. */
export function carPhotoSrcset(vin: string, view: ImageView, version: string): string {
  return PHOTO_WIDTHS.map((w) => `${carPhotoPath(vin, view, version, w)} ${w}w`).join(', ');
}
