import { describe, expect, it } from 'vitest';
import { mainPhoto } from './photos.ts';

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
