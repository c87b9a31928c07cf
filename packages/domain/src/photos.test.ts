import { describe, expect, it } from 'vitest';
import { PHOTO_DEFAULT_WIDTH, PHOTO_WIDTHS, carPhotoPath, carPhotoSrcset, mainPhoto } from './photos.ts';

describe("a car's main photo (spec 2: the vehicle page and cards lead with the MONEYSHOT view)", () => {
  it('is the MONEYSHOT view wherever it stands in the list', () => {
    const images = [
      { view: 'L_SIDE' as const, image_url: '/side.svg' },
      { view: 'MONEYSHOT' as const, image_url: '/front-three-quarter.svg' },
    ];
    expect(mainPhoto(images)?.image_url).toBe('/front-three-quarter.svg');
  });
  it('is the first photo when there is no MONEYSHOT, and nothing when there are no photos', () => {
    expect(mainPhoto([{ view: 'REAR' as const, image_url: '/rear.svg' }])?.image_url).toBe('/rear.svg');
    expect(mainPhoto([])).toBeUndefined();
  });
});

describe("a car's own photo's addresses (decision 085)", () => {
  it('carry the view, the version and the width, so a new upload has new addresses', () => {
    expect(carPhotoPath('5YJ3E1EA0RF800001', 'MONEYSHOT', 'a1b2c3d4e5f6', 960)).toBe(
      '/media/cars/5YJ3E1EA0RF800001/moneyshot-a1b2c3d4e5f6-960.webp',
    );
    expect(carPhotoSrcset('VIN', 'DASH', 'v1')).toBe(
      '/media/cars/VIN/dash-v1-480.webp 480w, /media/cars/VIN/dash-v1-960.webp 960w, /media/cars/VIN/dash-v1-1600.webp 1600w',
    );
    expect(PHOTO_WIDTHS).toContain(PHOTO_DEFAULT_WIDTH);
  });
});
