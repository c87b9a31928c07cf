import { Combobox, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { OPERATING_STATES, US_STATES } from '@ampere/domain/address';
import { BLUR_DELAY_MS } from '@ampere/domain/constants';
import type { SuggestedAddress } from '@ampere/domain/contract/account';
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
 * a valid address from the suggestions.' and clears it. (Built on the Combobox the search page
 * already loads, so the booking pages add no Mantine code to the first download.)
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
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
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
    combobox.closeDropdown();
    onPick(address);
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(i) => {
        const a = options[Number(i)];
        if (a) pick(a);
      }}
    >
      <Combobox.Target>
        <TextInput
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
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            if (picked && value !== addressLabel(picked)) {
              setPicked(null);
              onUnset();
            }
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            clearTimeout(blurTimer.current);
            blurTimer.current = setTimeout(() => {
              combobox.closeDropdown();
              const { text: now, picked: chosen } = current.current;
              if ((chosen && addressLabel(chosen) === now) || now.trim() === '') return;
              setError(ADDRESS_ERROR);
              setText('');
              setPicked(null);
            }, BLUR_DELAY_MS);
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={options.length === 0}>
        <Combobox.Options mah={280} style={{ overflowY: 'auto' }}>
          {options.map((a, i) => (
            <Combobox.Option value={String(i)} key={addressLabel(a)}>
              <Text size="sm">{addressLabel(a)}</Text>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
