import { Button, Group, Paper, UnstyledButton, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { SearchOption } from '@ampere/domain/contract/catalog';
import type { Trip } from '@ampere/domain/dates';
import { formatDateUs, formatTime12 } from '@ampere/domain/format';
import { LazyChangeDatesModal as ChangeDatesModal } from '../../../shared/ui/dates/lazy-change-dates-modal.ts';
import { defaultTripFor } from '../default-trip.ts';
import { LocationBox } from '../components/location-box.tsx';
import classes from '../components/search-bar.module.css';

export interface SearchBarProps {
  location: SearchOption | null;
  trip: Trip | null;
  onSearch(location: SearchOption, trip: Trip): void;
  /** The search button's words: 'Search' on /search, 'View Vehicles' in the home page's hero (spec 2). */
  submitLabel?: string;
  /** Told of each place and dates chosen before the search is run (the home page links carry them). */
  onDraftChange?(location: SearchOption | null, trip: Trip | null): void;
}

export function tripSummary(trip: Trip | null): string {
  if (!trip) return 'Choose dates';
  return `${formatDateUs(trip.pickupDate)} ${formatTime12(trip.pickupTime)} – ${formatDateUs(trip.returnDate)} ${formatTime12(trip.returnTime)}`;
}

/** Wide search bar: location, dates, and a search button enabled once all three are set. */
export function SearchBar({ location, trip, onSearch, submitLabel = 'Search', onDraftChange }: SearchBarProps) {
  const [draftLocation, setDraftLocation] = useState(location);
  const [draftTrip, setDraftTrip] = useState(trip);
  const [datesOpen, setDatesOpen] = useState(false);
  useEffect(() => setDraftLocation(location), [location]);
  useEffect(() => setDraftTrip(trip), [trip]);
  useEffect(() => onDraftChange?.(draftLocation, draftTrip), [draftLocation, draftTrip, onDraftChange]);
  const isValid = !!draftLocation && !!draftTrip?.pickupDate && !!draftTrip.returnDate;
  const tz = draftLocation?.timezone ?? location?.timezone ?? 'America/Chicago';

  return (
    <Paper
      withBorder
      radius="lg"
      p="sm"
      className={classes.bar}
      component="form"
      role="search"
      aria-label="Search vehicles"
      onSubmit={(e) => {
        e.preventDefault();
        if (!isValid) {
          console.info('Missing required filters for search.');
          return;
        }
        onSearch(draftLocation!, draftTrip!);
      }}
    >
      <div className={classes.location}>
        <LocationBox
          value={draftLocation}
          onChange={(o) => {
            setDraftLocation(o);
            // A place chosen before any dates: the place's default trip, so the dates can be changed.
            setDraftTrip((t) => t ?? defaultTripFor(o));
          }}
        />
      </div>
      <div className={classes.dates}>
        <Text component="span" size="sm" fw={500} id="trip-dates-label">
          Trip dates
        </Text>
        <UnstyledButton
          className={classes.datesButton}
          onClick={() => setDatesOpen(true)}
          aria-labelledby="trip-dates-label trip-dates-value"
        >
          <span id="trip-dates-value">{tripSummary(draftTrip)}</span>
        </UnstyledButton>
      </div>
      <Group align="flex-end">
        <Button type="submit" disabled={!isValid} size="md">
          {submitLabel}
        </Button>
      </Group>
      <ChangeDatesModal
        opened={datesOpen}
        onClose={() => setDatesOpen(false)}
        // No dates yet: the calendar opens on the default trip for the place (or our home zone).
        initial={
          draftTrip ??
          defaultTripFor({
            timezone: tz,
            min_reservation_buffer_hours: draftLocation?.min_reservation_buffer_hours ?? null,
          })
        }
        timeZone={tz}
        bufferHours={draftLocation?.min_reservation_buffer_hours}
        onApply={(t) => {
          setDraftTrip(t);
          setDatesOpen(false);
        }}
      />
    </Paper>
  );
}
