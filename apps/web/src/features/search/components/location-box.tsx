import { Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { BLUR_DELAY_MS } from '@ampere/domain/constants';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import { track } from '../../../shared/analytics.ts';
import { Autocomplete } from '../../../shared/ui/autocomplete.tsx';
import { autocompleteQueryOptions, citiesQueryOptions, landmarksQueryOptions } from '../public/search-options.ts';
import { LocationIcon } from './location-icon.tsx';

export interface LocationBoxProps {
  value: SearchOption | null;
  onChange(option: SearchOption): void;
  label?: string;
  placeholder?: string;
}

/**
 * Location autocomplete (spec 4): local case-insensitive filtering of labels, server suggestions
 * as the renter types, 'No results found for "…"', and on blur (after 100 ms) an exact match is
 * selected or the text reverts. Empty input shows the city list again.
 */
export function LocationBox({
  value,
  onChange,
  label = 'Location',
  placeholder = 'Enter a city or landmark',
}: LocationBoxProps) {
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState(value?.query ?? '');
  const [debounced] = useDebouncedValue(text.trim(), 150);
  const cities = useQuery(citiesQueryOptions());
  const typed = debounced && debounced !== value?.query ? debounced : '';
  const suggestions = useQuery({ ...autocompleteQueryOptions(typed), enabled: typed.length > 0 });
  // Spec 4: with a chosen place, its nearby landmarks join the list shown before typing.
  const landmarks = useQuery({ ...landmarksQueryOptions(value?.id ?? 0), enabled: !!value });
  const blurTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => setText(value?.query ?? ''), [value?.query]);
  useEffect(() => () => clearTimeout(blurTimer.current), []);

  const needle = text.trim().toLowerCase();
  const pool = new Map<number, SearchOption>();
  for (const o of [...(suggestions.data ?? []), ...(cities.data ?? []), ...(landmarks.data ?? [])]) pool.set(o.id, o);
  const showAll = !needle || needle === value?.query.toLowerCase();
  const defaults = [...(cities.data ?? []), ...(landmarks.data ?? [])];
  const options = showAll ? defaults : [...pool.values()].filter((o) => o.query.toLowerCase().includes(needle));

  /** `picked`: chosen from the list, as opposed to typed out in full and matched when leaving the box. */
  const select = (option: SearchOption, picked: boolean) => {
    clearTimeout(blurTimer.current);
    setText(option.query);
    // Spec 4: a tracking event after a location is picked (leaving the box on the current place is no pick).
    if (picked || option.id !== value?.id)
      track('location_selected', {
        query: option.query,
        latitude: option.latitude,
        longitude: option.longitude,
        resultCount: 0,
      });
    onChange(option);
    setOpened(false);
  };

  const onBlur = () => {
    blurTimer.current = setTimeout(() => {
      const exact = [...pool.values()].find((o) => o.query.toLowerCase() === needle);
      if (exact && needle) select(exact, false);
      else {
        if (needle && needle !== value?.query.toLowerCase()) console.info('Invalid autocomplete value', text);
        setText(value?.query ?? '');
      }
      setOpened(false);
    }, BLUR_DELAY_MS);
  };

  return (
    <Autocomplete
      label={label}
      placeholder={placeholder}
      value={text}
      autoComplete="off"
      leftSection={<LocationIcon type={value?.type ?? 'CITY'} />}
      onChange={(e) => {
        setText(e.currentTarget.value);
        setOpened(true);
      }}
      onClick={() => setOpened(true)}
      onFocus={() => setOpened(true)}
      onBlur={onBlur}
      opened={opened}
      onOpenedChange={setOpened}
      options={options}
      optionKey={(o) => String(o.id)}
      currentKey={value ? String(value.id) : null}
      onPick={(o) => select(o, true)}
      renderOption={(o) => (
        <Group gap="xs" wrap="nowrap">
          <LocationIcon type={o.type} />
          <Text size="sm">{o.query}</Text>
        </Group>
      )}
      empty={`No results found for "${text.trim()}"`}
    />
  );
}
