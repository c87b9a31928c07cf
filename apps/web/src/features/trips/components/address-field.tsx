import { Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { OPERATING_STATES, US_STATES } from '@ampere/domain/address';
import { BLUR_DELAY_MS } from '@ampere/domain/constants';
import type { SuggestedAddress } from '@ampere/domain/contract/account';
import { Autocomplete } from '../../../shared/ui/autocomplete.tsx';
import { type AddressStates, useAddressSuggestions } from '../api/suggest-addresses.ts';

export const ADDRESS_ERROR = 'Please select a valid address from the suggestions.';

/**
 * Spec 7: addresses in the 50 states and DC (a renter may live anywhere in the country, decision
 * 033), the states of the cities we rent in first.
 */
const STATES: AddressStates = { include: US_STATES, prefer: OPERATING_STATES };

export const addressLabel = (a: SuggestedAddress) =>
  `${a.street_line}${a.secondary ? ` ${a.secondary}` : ''}, ${a.city}, ${a.state} ${a.zipcode}`;

/**
 * The renter's address, picked from suggestions (spec 5): suggestions for 1 character or more;
 * leaving the field (after 100 ms) with text that is not a picked suggestion shows 'Please select
 * a valid address from the suggestions.' and clears it. (The same Autocomplete as the search
 * page's location box.)
 */
export function AddressField({
  initial,
  onPick,
  onUnset,
}: {
  initial: SuggestedAddress | null;
  onPick(address: SuggestedAddress): void;
  onUnset(): void;
}) {
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState(initial ? addressLabel(initial) : '');
  const [picked, setPicked] = useState<SuggestedAddress | null>(initial);
  const [error, setError] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(text.trim(), 150);
  // Nothing to look up for the address already picked.
  const suggestions = useAddressSuggestions(picked && addressLabel(picked) === debounced ? '' : debounced, STATES);
  const blurTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const current = useRef({ text, picked });
  current.current = { text, picked };

  useEffect(() => {
    // Spec 8: an address suggestion error is only logged.
    if (suggestions.error) console.error('address suggestions failed', suggestions.error);
  }, [suggestions.error]);
  useEffect(() => () => clearTimeout(blurTimer.current), []);

  const options = text.trim() && !(picked && addressLabel(picked) === text) ? (suggestions.data ?? []) : [];

  const pick = (address: SuggestedAddress) => {
    clearTimeout(blurTimer.current);
    setPicked(address);
    setText(addressLabel(address));
    setError(null);
    setOpened(false);
    onPick(address);
  };

  return (
    <Autocomplete
      label="Address"
      placeholder="Start typing your street address"
      autoComplete="off"
      required
      value={text}
      error={error}
      errorProps={{ role: 'alert' }}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setText(value);
        setError(null);
        setOpened(true);
        if (picked && value !== addressLabel(picked)) {
          setPicked(null);
          onUnset();
        }
      }}
      onFocus={() => setOpened(true)}
      onBlur={() => {
        clearTimeout(blurTimer.current);
        blurTimer.current = setTimeout(() => {
          setOpened(false);
          const { text: now, picked: chosen } = current.current;
          if ((chosen && addressLabel(chosen) === now) || now.trim() === '') return;
          setError(ADDRESS_ERROR);
          setText('');
          setPicked(null);
        }, BLUR_DELAY_MS);
      }}
      opened={opened}
      onOpenedChange={setOpened}
      options={options}
      optionKey={addressLabel}
      onPick={pick}
      renderOption={(a) => <Text size="sm">{addressLabel(a)}</Text>}
      maxHeight={280}
    />
  );
}
