import { Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import type { Trip } from '@ampere/domain/dates';
import { openedLazily } from '../../../shared/ui/opened-lazily.tsx';
import { tripSummary } from './search-bar.tsx';
import classes from '../components/mobile-search.module.css';

export interface MobileSearchProps {
  location: SearchOption | null;
  trip: Trip | null;
  onSearch(location: SearchOption, trip: Trip): void;
}

// The steps' code (place search, calendar, times, the dialog itself) loads when it is first opened.
const MobileSearchDialog = openedLazily(() =>
  import('../components/mobile-search-dialog.tsx').then((m) => m.MobileSearchDialog),
);

/** Under 768 px: a summary button opening a three-step modal (Location, Pickup, Return). */
export function MobileSearch({ location, trip, onSearch }: MobileSearchProps) {
  const [open, setOpen] = useState(false);
  // Each opening starts afresh from the search on screen.
  const [opening, setOpening] = useState(0);
  const start = () => {
    setOpening((n) => n + 1);
    setOpen(true);
  };

  return (
    <>
      {/* Named by what it shows, so the words a renter sees (and says, to voice control) are its name. */}
      <UnstyledButton className={classes.trigger} onClick={start}>
        <VisuallyHidden>Change search: </VisuallyHidden>
        <Text fw={600} size="sm">
          {location?.query ?? 'Where to?'}
        </Text>
        <Text size="xs" c="dimmed">
          {tripSummary(trip)}
        </Text>
      </UnstyledButton>
      <MobileSearchDialog
        key={opening}
        opened={open}
        onClose={() => setOpen(false)}
        location={location}
        trip={trip}
        onSearch={onSearch}
      />
    </>
  );
}
