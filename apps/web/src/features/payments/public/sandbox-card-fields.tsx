import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { CardBrandIcon } from '../../../shared/ui/card-brand-icon.tsx';
import {
  type CardEntry,
  type CardField,
  cardErrors,
  cvcLength,
  detectBrand,
  formatCardNumber,
  formatExpiry,
} from './card-entry.ts';

const EMPTY: CardEntry = { number: '', expiry: '', cvc: '', zip: '' };

export interface SandboxCardFieldsProps {
  /** Called with the entry as typed and whether it is complete and valid. */
  onEntryChange(entry: CardEntry, complete: boolean): void;
  disabled?: boolean;
  /** 'stacked': expiry and code side by side, ZIP below (a dialog); 'row': the three in one row on wider screens. */
  layout: 'stacked' | 'row';
  expiryLabel: string;
  note: string;
}

/**
 * The offline gateway's card fields, shaped and behaving like Stripe's Payment Element: the number
 * is grouped and its brand shown as typed, focus moves on as each field fills, and a field's error
 * shows once the renter leaves it (or at once when a full number fails its check).
 */
export function SandboxCardFields({ onEntryChange, disabled, layout, expiryLabel, note }: SandboxCardFieldsProps) {
  const [entry, setEntry] = useState<CardEntry>(EMPTY);
  const [left, setLeft] = useState<Partial<Record<CardField, boolean>>>({});
  const refs = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvc: useRef<HTMLInputElement>(null),
    zip: useRef<HTMLInputElement>(null),
  };
  const errors = cardErrors(entry, new Date());
  const complete = Object.keys(errors).length === 0;
  const brand = detectBrand(entry.number);
  const cvcMax = cvcLength(entry.number);

  useEffect(() => onEntryChange(entry, complete), [entry, complete, onEntryChange]);

  const numberFull = entry.number.replace(/\D/g, '').length >= (brand === 'american express' ? 15 : 16);
  const shown = (f: CardField) =>
    left[f] || (f === 'number' && numberFull) || (f === 'expiry' && entry.expiry.length === 7) ? errors[f] : undefined;
  const change = (f: CardField, value: string, next?: CardField) => {
    setEntry((e) => ({ ...e, [f]: value }));
    if (next && !cardErrors({ ...entry, [f]: value }, new Date())[f]) refs[next].current?.focus();
  };
  const common = (f: CardField) => ({
    ref: refs[f],
    size: layout === 'stacked' ? ('md' as const) : undefined,
    disabled,
    error: shown(f),
    errorProps: { role: 'alert' },
    onBlur: () => setLeft((l) => ({ ...l, [f]: true })),
  });

  const expiry = (
    <TextInput
      {...common('expiry')}
      label={expiryLabel}
      placeholder="MM / YY"
      inputMode="numeric"
      autoComplete="cc-exp"
      value={entry.expiry}
      onChange={(e) => change('expiry', formatExpiry(e.currentTarget.value, entry.expiry), 'cvc')}
    />
  );
  const cvc = (
    <TextInput
      {...common('cvc')}
      label="Security code"
      placeholder="CVC"
      inputMode="numeric"
      autoComplete="cc-csc"
      maxLength={cvcMax}
      value={entry.cvc}
      onChange={(e) => change('cvc', e.currentTarget.value.replace(/\D/g, '').slice(0, cvcMax), 'zip')}
    />
  );
  const zip = (
    <TextInput
      {...common('zip')}
      label="ZIP code"
      placeholder="12345"
      inputMode="numeric"
      autoComplete="postal-code"
      maxLength={5}
      value={entry.zip}
      onChange={(e) => change('zip', e.currentTarget.value.replace(/\D/g, '').slice(0, 5))}
    />
  );

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
      {layout === 'stacked' ? (
        <>
          <SimpleGrid cols={2} spacing="sm">
            {expiry}
            {cvc}
          </SimpleGrid>
          {zip}
        </>
      ) : (
        <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm">
          {expiry}
          {cvc}
          {zip}
        </SimpleGrid>
      )}
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </Stack>
  );
}
