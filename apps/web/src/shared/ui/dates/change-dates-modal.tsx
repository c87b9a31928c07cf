import { Button, Group, Modal, SimpleGrid, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { type Busy, takenDays, timeClashes, touchedDays } from '@ampere/domain/availability';
import { DATE_RANGE_LIMIT_DAYS } from '@ampere/domain/constants';
import { type Trip, bumpToAllowed, earliestSelectable, setPickupDate, setReturn } from '@ampere/domain/dates';
import { formatDateUs } from '@ampere/domain/format';
import { addDays, toInstant, toLocal } from '@ampere/domain/time';
import { DateRangeCalendar } from './date-range-calendar.tsx';
import { TimeSelect } from './time-select.tsx';
import { useWideLayout } from '../use-wide-layout.ts';

export interface ChangeDatesModalProps {
  opened: boolean;
  onClose(): void;
  initial: Trip;
  timeZone: string;
  bufferHours?: number | null;
  /** The car's holds (booking a car): days with no time left are blocked and clashing times disabled. */
  busy?: readonly Busy[];
  onApply(trip: Trip): void;
}

/** 'Change Dates': pick a range, then times; nothing changes until 'Apply Dates'. */
export function ChangeDatesModal({
  opened,
  onClose,
  initial,
  timeZone,
  bufferHours,
  busy,
  onApply,
}: ChangeDatesModalProps) {
  const wide = useWideLayout();
  const now = new Date();
  const earliest = earliestSelectable(now, timeZone, bufferHours);
  const today = toLocal(now, timeZone).date;
  const [start, setStart] = useState<string | null>(initial.pickupDate);
  const [end, setEnd] = useState<string | null>(initial.returnDate);
  const [pickupTime, setPickupTime] = useState(initial.pickupTime);
  const [returnTime, setReturnTime] = useState(initial.returnTime);

  useEffect(() => {
    if (!opened) return;
    setStart(initial.pickupDate);
    setEnd(initial.returnDate);
    setPickupTime(initial.pickupTime);
    setReturnTime(initial.returnTime);
  }, [opened, initial.pickupDate, initial.returnDate, initial.pickupTime, initial.returnTime]);

  // Decision 015: the days and times the car's bookings leave, by the domain's one rule; worked
  // out once the dialog opens (a closed one draws no calendar, and the page it sits on loads faster).
  const pickupMs = start ? toInstant({ date: start, time: pickupTime }, timeZone).getTime() : null;
  const noPickupDays = useMemo(
    () => (opened && busy ? takenDays(busy, timeZone, touchedDays(busy, timeZone), { kind: 'pickup' }) : undefined),
    [opened, busy, timeZone],
  );
  const noReturnDays = useMemo(() => {
    if (!opened || !busy || !start) return undefined;
    const returnWindow = Array.from({ length: DATE_RANGE_LIMIT_DAYS }, (_, i) => addDays(start, i + 1));
    return takenDays(busy, timeZone, returnWindow, { kind: 'return', pickupMs });
  }, [opened, busy, timeZone, start, pickupMs]);
  const pickupBooked =
    busy && start
      ? (t: string) => timeClashes(busy, { date: start, time: t }, timeZone, { kind: 'pickup' })
      : undefined;
  const returnBooked =
    busy && end
      ? (t: string) => timeClashes(busy, { date: end, time: t }, timeZone, { kind: 'return', pickupMs })
      : undefined;

  const apply = () => {
    if (!start || !end) return;
    const pickup = bumpToAllowed({ date: start, time: pickupTime }, earliest);
    let trip: Trip = { ...initial, pickupTime: pickup.time };
    trip = setPickupDate({ ...trip, returnDate: end }, pickup.date);
    trip = setReturn(trip, end, returnTime);
    onApply(trip);
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Change Dates"
      size="auto"
      centered={wide ?? true}
      fullScreen={wide === false}
    >
      <DateRangeCalendar
        value={{ start, end }}
        onChange={(r) => {
          setStart(r.start);
          setEnd(r.end);
        }}
        today={today}
        unavailable={noPickupDays}
        unavailableReturns={noReturnDays}
        months={wide ? 2 : 1}
      />
      <SimpleGrid cols={2} mt="md">
        <div>
          <Text size="sm" fw={600}>
            Pickup
          </Text>
          <Text size="sm" mb={4}>
            {start ? formatDateUs(start) : 'Choose a date'}
          </Text>
          <TimeSelect
            label="Pickup time"
            value={pickupTime}
            onChange={setPickupTime}
            date={start ?? today}
            earliest={earliest}
            isBooked={pickupBooked}
          />
        </div>
        <div>
          <Text size="sm" fw={600}>
            Return
          </Text>
          <Text size="sm" mb={4}>
            {end ? formatDateUs(end) : 'Choose a date'}
          </Text>
          <TimeSelect
            label="Return time"
            value={returnTime}
            onChange={setReturnTime}
            date={end ?? today}
            earliest={earliest}
            isBooked={returnBooked}
          />
        </div>
      </SimpleGrid>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={apply} disabled={!start || !end}>
          Apply Dates
        </Button>
      </Group>
    </Modal>
  );
}
