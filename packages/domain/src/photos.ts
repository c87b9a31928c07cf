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
