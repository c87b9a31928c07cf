import { Text } from '@mantine/core';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useEffect } from 'react';
import { stripeFor } from '../../payments/public/stripe-loader.ts';
import type { CardFormProps } from './card-form-props.ts';

/** Stripe's Payment Element for a SetupIntent; confirmSetup saves the card without leaving the page. */
export function StripeCardForm(props: CardFormProps) {
  if (!props.publishableKey) {
    console.error('The setup intent came from Stripe without a publishable key');
    return <Text>We couldn't open the card form. Close this window and try again.</Text>;
  }
  return (
    <Elements
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

function PaymentForm({ confirmRef, onCompleteChange, disabled }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    confirmRef.current = async () => {
      if (!stripe || !elements) throw new Error('The card form is still loading. Try again in a moment.');
      const { error } = await stripe.confirmSetup({ elements, redirect: 'if_required' });
      if (error) throw new Error(error.message ?? 'Your card could not be saved. Try another card.');
    };
    return () => {
      confirmRef.current = null;
    };
  }, [stripe, elements, confirmRef]);
  return <PaymentElement options={{ readOnly: disabled }} onChange={(e) => onCompleteChange(e.complete)} />;
}
