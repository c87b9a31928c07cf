import { Stack, Text } from '@mantine/core';
import classes from './booking.module.css';

/** Spec 2: five step texts over the page-load steps (user, reservation, payment creation, reservation refresh, saved cards, prefill). */
export const LOAD_STEP_TEXTS = [
  'Checking your details…',
  'Loading your trip…',
  'Preparing secure payment…',
  'Loading your saved cards…',
  'Getting everything ready…',
] as const;
const TEXT_OF_STEP = [0, 1, 2, 2, 3, 4];
export const LOAD_STEPS = 6;

/**
 * Spec 9: the progress shown is capped at 99%. The load reaches 100 internally (the overlay then
 * hides 300 ms later), but the renter never reads '100%' on a page still in front of them.
 */
export const loadPercent = (done: number) => Math.min(99, Math.round((done / LOAD_STEPS) * 100));

export function PayLoading({ done, complete }: { done: number; complete: boolean }) {
  const percent = loadPercent(complete ? LOAD_STEPS : done);
  const text = LOAD_STEP_TEXTS[TEXT_OF_STEP[Math.min(done, LOAD_STEPS - 1)]!];
  return (
    <Stack gap="sm" py={60} px="md" maw={420} mx="auto" ta="center">
      <Text fw={700} size="xl" aria-hidden="true">
        {percent}%
      </Text>
      <div
        className={classes.progress}
        role="progressbar"
        aria-label="Loading the payment page"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className={classes.progressBar} style={{ width: `${percent}%` }} />
      </div>
      <Text size="sm" role="status" aria-live="polite">
        {complete ? 'Ready' : text}
      </Text>
    </Stack>
  );
}
