import { Text } from '@mantine/core';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useEffect } from 'react';
import { stripeFor } from '../../payments/public/stripe-loader.ts';
import type { CardPayProps } from './card-pay-props.ts';

const methodId = (pm: string | { id: string } | null | undefined) => (typeof pm === 'string' ? pm : (pm?.id ?? ''));

/** Confirms an intent with a saved card (or the card the charge just used): Stripe's confirmCardPayment. */
export async function stripeConfirmWithMethod(
  publishableKey: string,
  clientSecret: string,
  paymentMethod: string,
): Promise<string> {
  const stripe = await stripeFor(publishableKey);
  if (!stripe) throw new Error('Our payment provider could not be reached. Check your connection and try again.');
  const { error, paymentIntent } = await stripe.confirmCardPayment(clientSecret, { payment_method: paymentMethod });
  if (error) throw new Error(error.message ?? 'Your payment could not be completed. Try another card.');
  return methodId(paymentIntent?.payment_method) || paymentMethod;
}

/** Stripe's Payment Element for the charge (or the hold); confirmPayment takes the new card without leaving the page. */
export function StripePayForm(props: CardPayProps) {
  if (!props.publishableKey || !props.clientSecret) {
    console.error('The payment came from Stripe without a publishable key or client secret');
    return <Text>We couldn't open the card form. Reload the page and try again.</Text>;
  }
  return (
    <Elements
      key={props.clientSecret}
      stripe={stripeFor(props.publishableKey)}
      options={{
        clientSecret: props.clientSecret,
        appearance: {
          theme: 'stripe',
          variables: {
            colorPrimary: '#0b3d2e',
            colorDanger: '#a11a1a',
            borderRadius: '8px',
            fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
          },
        },
      }}
    >
      <PaymentForm {...props} />
    </Elements>
  );
}

function PaymentForm({ clientSecret, confirmRef, onCompleteChange, onEdit, disabled }: CardPayProps) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    confirmRef.current = async (secret) => {
      if (!stripe || !elements) throw new Error('The card form is still loading. Try again in a moment.');
      if (secret !== clientSecret) throw new Error('The card form is out of date. Reload the page and try again.');
      const { error, paymentIntent } = await stripe.confirmPayment({ elements, redirect: 'if_required' });
      if (error) throw new Error(error.message ?? 'Your payment could not be completed. Try another card.');
      return methodId(paymentIntent?.payment_method);
    };
    return () => {
      confirmRef.current = null;
    };
  }, [stripe, elements, confirmRef, clientSecret]);
  useEffect(() => () => onCompleteChange(false), [onCompleteChange]);
  return (
    <PaymentElement
      options={{ readOnly: disabled }}
      onChange={(e) => {
        onCompleteChange(e.complete);
        if (!e.empty) onEdit();
      }}
    />
  );
}
