import { Center, Loader, Stack, Text } from '@mantine/core';
import { Suspense, lazy } from 'react';
import { SAVED_CARDS_LISTED } from '@ampere/domain/account';
import type { SavedCard } from '@ampere/domain/contract/account';
import { endingIn } from '@ampere/domain/format';
import { CardBrandIcon, cardBrandName } from '../../../shared/ui/card-brand-icon.tsx';
import type { CardPayProps } from './card-pay-props.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { SandboxPayForm } from './sandbox-pay-form.tsx';

// Stripe.js and its React bindings load only when the gateway is Stripe (their own chunk).
const StripePayForm = lazy(() => import('./stripe-pay.tsx').then((m) => ({ default: m.StripePayForm })));

export const NEW_CARD = 'new';

/**
 * Spec 2: up to 3 saved cards plus 'New Credit Card' (the first card chosen to begin with); the
 * card form shows for a new card. Card errors (the provider's message) show under it.
 */
export function PaymentMethod(props: {
  cards: SavedCard[];
  value: string;
  onChange(value: string): void;
  provider: 'stripe' | 'sandbox';
  form: CardPayProps;
  error: string | null;
}) {
  const { cards, value, onChange, provider, form, error } = props;
  const loading = (
    <Center py="md">
      <Loader size="sm" aria-label="Loading the card form" />
    </Center>
  );
  return (
    <Stack gap="sm">
      <ChoiceGroup
        legend="Payment method"
        name="payment-method"
        value={value}
        onChange={onChange}
        options={[
          ...cards.slice(0, SAVED_CARDS_LISTED).map((c) => ({
            value: c.id,
            label: (
              <>
                <CardBrandIcon brand={c.card_brand} size={0.8} />
                <span>
                  {cardBrandName(c.card_brand)} {endingIn(c.last4)}
                </span>
              </>
            ),
          })),
          { value: NEW_CARD, label: 'New Credit Card' },
        ]}
      />
      {value === NEW_CARD &&
        (provider === 'stripe' ? (
          <Suspense fallback={loading}>
            <StripePayForm {...form} />
          </Suspense>
        ) : (
          <SandboxPayForm {...form} />
        ))}
      {error && (
        <Text role="alert" c="red.9" size="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}
