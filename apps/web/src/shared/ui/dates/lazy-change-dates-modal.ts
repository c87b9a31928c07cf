import { openedLazily } from '../opened-lazily.tsx';

/** The change-dates dialog, its code (calendar, times, the dialog itself) loaded when it is first opened. */
export const LazyChangeDatesModal = openedLazily(() =>
  import('./change-dates-modal.tsx').then((m) => m.ChangeDatesModal),
);
