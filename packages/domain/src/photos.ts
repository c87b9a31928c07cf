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
