import { Select } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import type { StaffLocation } from '../../shared/staff-locations.ts';

const REMEMBERED = 'ops.today.location';

/**
 * The location whose day is shown: one of the staff member's own, the last one chosen on this
 * device remembered (a desk is at one lot), else the first.
 */
export function useBoardLocation(locations: StaffLocation[] | undefined): [StaffLocation | null, (id: string) => void] {
  const [remembered, remember] = useLocalStorage<string | null>({ key: REMEMBERED, defaultValue: null });
  const list = locations ?? [];
  const chosen = list.find((l) => l.id === remembered) ?? list[0] ?? null;
  return [chosen, remember];
}

export function LocationPicker({
  locations,
  value,
  onChange,
}: {
  locations: StaffLocation[];
  value: string | null;
  onChange: (id: string) => void;
}) {
  return (
    <Select
      label="Location"
      data={locations.map((l) => ({ value: l.id, label: `${l.name} (${l.city}, ${l.state})` }))}
      value={value}
      onChange={(id) => id && onChange(id)}
      searchable={locations.length > 8}
      limit={100}
      allowDeselect={false}
      nothingFoundMessage="None of your locations matches"
      w={{ base: '100%', sm: 360 }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
