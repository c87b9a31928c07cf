import { Title } from '@mantine/core';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { CardChoice } from '../use-card-choice.ts';
import classes from './booking.module.css';
import { PaymentMethod } from './payment-method.tsx';

/**
 * Review & Pay's payment section (spec 2): the saved cards and 'New Credit Card', the card form for
 * the payment's secret, and a refused card's message. Choosing another method, or editing the card,
 * clears that message.
 */
export function PaymentPanel(props: {
  cards: SavedCard[];
  card: CardChoice;
  error: string | null;
  onChoose(): void;
  disabled: boolean;
}) {
  const { cards, card, error, onChoose, disabled } = props;
  const { secrets } = card;
  return (
    <section className={classes.panel} aria-labelledby="payment-title">
      <Title order={2} size="h4" id="payment-title" mb="xs">
        Payment
      </Title>
      <PaymentMethod
        cards={cards}
        value={card.chosen}
        onChange={(v) => {
          card.choose(v);
          onChoose();
        }}
        provider={card.provider}
        error={error}
        form={{
          clientSecret: secrets ? secrets.client_secret || secrets.deposit_client_secret : null,
          publishableKey: secrets?.publishable_key ?? null,
          confirmRef: card.confirmNew,
          onCompleteChange: card.onCompleteChange,
          onEdit: onChoose,
          disabled,
        }}
      />
    </section>
  );
}
