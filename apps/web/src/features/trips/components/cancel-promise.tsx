import { Text, Title } from '@mantine/core';
import type { Reservation } from '@ampere/domain/contract/booking';
import { payPageCancelWords } from '../cancel-words.ts';
import classes from './booking.module.css';

/** Spec 2's free-cancellation card (new reservations only), true for this booking (decision 053). */
export function CancelPromise({ r }: { r: Reservation }) {
  const words = payPageCancelWords(r);
  return (
    <section className={classes.priceBox} data-closed={words.closed || undefined} aria-labelledby="cancel-title">
      <Title order={2} size="h5" id="cancel-title">
        {words.title}
      </Title>
      <Text size="sm">{words.text}</Text>
    </section>
  );
}
