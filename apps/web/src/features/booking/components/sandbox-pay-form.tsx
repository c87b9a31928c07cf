import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { CardBrandIcon } from '../../../shared/ui/card-brand-icon.tsx';
import { type CardEntry, type CardField, cardErrors, cardPayload, cvcLength, detectBrand, formatCardNumber, formatExpiry } from '../../profile/card-entry.ts';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment.ts';
import type { CardPayProps } from './card-pay-props.ts';

const EMPTY: CardEntry = { number: '', expiry: '', cvc: '', zip: '' };

/**
 * The offline gateway's card form on the payment page: the profile's card entry (grouped number,
 * brand, MM / YY, Stripe's messages), confirming payment intents instead of a setup intent.
 */
export function SandboxPayForm({ confirmRef, onCompleteChange, disabled }: CardPayProps) {
  const [entry, setEntry] = useState<CardEntry>(EMPTY);
  const [left, setLeft] = useState<Partial<Record<CardField, boolean>>>({});
  const refs = { number: useRef<HTMLInputElement>(null), expiry: useRef<HTMLInputElement>(null), cvc: useRef<HTMLInputElement>(null), zip: useRef<HTMLInputElement>(null) };
  const errors = cardErrors(entry, new Date());
  const complete = Object.keys(errors).length === 0;
  const brand = detectBrand(entry.number);
  const cvcMax = cvcLength(entry.number);

  useEffect(() => onCompleteChange(complete), [complete, onCompleteChange]);
  useEffect(() => {
    confirmRef.current = (clientSecret) => confirmSandboxPayment(clientSecret, { card: cardPayload(entry) });
    return () => {
      confirmRef.current = null;
    };
  }, [entry, confirmRef]);

  const numberFull = entry.number.replace(/\D/g, '').length >= (brand === 'american express' ? 15 : 16);
  const shown = (f: CardField) => (left[f] || (f === 'number' && numberFull) || (f === 'expiry' && entry.expiry.length === 7) ? errors[f] : undefined);
  const change = (f: CardField, value: string, next?: CardField) => {
    setEntry((e) => ({ ...e, [f]: value }));
    if (next && !cardErrors({ ...entry, [f]: value }, new Date())[f]) refs[next].current?.focus();
  };
  const common = (f: CardField) => ({
    ref: refs[f],
    disabled,
    error: shown(f),
    errorProps: { role: 'alert' },
    onBlur: () => setLeft((l) => ({ ...l, [f]: true })),
  });

  return (
    <Stack gap="sm">
      <TextInput
        {...common('number')}
        label="Card number"
        placeholder="1234 1234 1234 1234"
        inputMode="numeric"
        autoComplete="cc-number"
        value={entry.number}
        onChange={(e) => change('number', formatCardNumber(e.currentTarget.value), 'expiry')}
        rightSection={<CardBrandIcon brand={brand ?? 'visa'} size={0.8} />}
        rightSectionWidth={44}
        styles={{ section: { opacity: brand ? 1 : 0.45 } }}
      />
      <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm">
        <TextInput {...common('expiry')} label="Expiration" placeholder="MM / YY" inputMode="numeric" autoComplete="cc-exp" value={entry.expiry} onChange={(e) => change('expiry', formatExpiry(e.currentTarget.value, entry.expiry), 'cvc')} />
        <TextInput {...common('cvc')} label="Security code" placeholder="CVC" inputMode="numeric" autoComplete="cc-csc" maxLength={cvcMax} value={entry.cvc} onChange={(e) => change('cvc', e.currentTarget.value.replace(/\D/g, '').slice(0, cvcMax), 'zip')} />
        <TextInput {...common('zip')} label="ZIP code" placeholder="12345" inputMode="numeric" autoComplete="postal-code" maxLength={5} value={entry.zip} onChange={(e) => change('zip', e.currentTarget.value.replace(/\D/g, '').slice(0, 5))} />
      </SimpleGrid>
      <Text size="xs" c="dimmed">Test mode: payments go to our test gateway and no real card is charged.</Text>
    </Stack>
  );
}
