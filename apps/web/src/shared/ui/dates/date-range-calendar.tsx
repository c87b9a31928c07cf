import { ActionIcon, Group, Text } from '@mantine/core';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { DAY_BLOCK_LABELS, type DateRange, type DayBlock, blockedReason, pickRangeDay } from '@ampere/domain/dates';
import { DATE_RANGE_LIMIT_DAYS } from '@ampere/domain/constants';
import { formatDateLong, monthTitle, weekday } from '@ampere/domain/format';
import { addDays, daysBetween } from '@ampere/domain/time';
import classes from './date-range-calendar.module.css';

export interface DateRangeCalendarProps {
  value: DateRange;
  onChange(range: DateRange): void;
  today: string;
  /** Days that cannot be picked (for a booking: no pickup time left on them). */
  unavailable?: ReadonlySet<string>;
  /** While the return is picked, the days that cannot be the return (none of their times ends a free trip). */
  unavailableReturns?: ReadonlySet<string>;
  months?: 1 | 2;
  /** Only the pickup is being chosen (the mobile search's Pickup step). */
  pickupOnly?: boolean;
  /**
   * Only the return is being chosen (the mobile search's Return step): every day is judged as a
   * return from the pickup, even once a return is set, so the 28-day limit holds there too.
   */
  returnOnly?: boolean;
}

const WEEKDAY_HEADERS = [
  ['Su', 'Sunday'],
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
] as const;

const firstOfMonth = (date: string) => `${date.slice(0, 7)}-01`;
function addMonths(first: string, n: number): string {
  const [y, m] = first.split('-').map(Number) as [number, number];
  const total = y * 12 + (m - 1) + n;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}-01`;
}
function daysInMonth(first: string): number {
  return daysBetween(first, addMonths(first, 1));
}

/**
 * A keyboard-operable range calendar: arrows move by day and week, Home/End to the week's ends,
 * PageUp/PageDown by month, Enter or Space picks. Blocked days say why to screen readers.
 */
export function DateRangeCalendar({
  value,
  onChange,
  today,
  unavailable,
  unavailableReturns,
  months = 2,
  pickupOnly = false,
  returnOnly = false,
}: DateRangeCalendarProps) {
  const [visible, setVisible] = useState(() => firstOfMonth(value.start ?? today));
  const [focused, setFocused] = useState(() => value.start ?? today);
  const gridRef = useRef<HTMLDivElement>(null);
  const shouldFocus = useRef(false);

  const pickingReturn = !pickupOnly && !!value.start && (returnOnly || !value.end);
  const reasonFor = (day: string): DayBlock | null =>
    blockedReason(day, {
      today,
      unavailable: pickingReturn ? unavailableReturns : unavailable,
      anchor: pickingReturn ? value.start : null,
      pickingReturn,
    });

  // In the commit that moves it, so the next key lands on the day that has just taken the focus.
  useLayoutEffect(() => {
    if (!shouldFocus.current) return;
    shouldFocus.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-date="${focused}"]`)?.focus();
  }, [focused, visible]);

  const moveFocus = (next: string) => {
    shouldFocus.current = true;
    setFocused(next);
    const last = addMonths(visible, months);
    if (next < visible) setVisible(firstOfMonth(next));
    else if (next >= last) setVisible(addMonths(firstOfMonth(next), -(months - 1)));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, day: string) => {
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(day, -1),
      ArrowRight: () => addDays(day, 1),
      ArrowUp: () => addDays(day, -7),
      ArrowDown: () => addDays(day, 7),
      Home: () => addDays(day, -weekday(day)),
      End: () => addDays(day, 6 - weekday(day)),
      PageUp: () => shiftMonth(day, -1),
      PageDown: () => shiftMonth(day, 1),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    moveFocus(move());
  };

  const pick = (day: string) => {
    if (reasonFor(day)) return;
    setFocused(day);
    if (pickupOnly) onChange({ start: day, end: null });
    // A day clicked while only the return is chosen is judged as if no return were set yet.
    else onChange(pickRangeDay(returnOnly ? { start: value.start, end: null } : value, day));
  };

  const canGoBack = visible > firstOfMonth(today);
  return (
    <div ref={gridRef} className={classes.root}>
      <Group justify="space-between" mb="xs">
        <ActionIcon
          variant="subtle"
          aria-label="Previous month"
          disabled={!canGoBack}
          onClick={() => setVisible(addMonths(visible, -1))}
        >
          <span aria-hidden="true">‹</span>
        </ActionIcon>
        <Text size="sm" c="dimmed" aria-live="polite">
          {pickingReturn ? 'Choose your return date' : 'Choose your pickup date'}
        </Text>
        <ActionIcon variant="subtle" aria-label="Next month" onClick={() => setVisible(addMonths(visible, 1))}>
          <span aria-hidden="true">›</span>
        </ActionIcon>
      </Group>
      <div className={classes.months}>
        {Array.from({ length: months }, (_, i) => addMonths(visible, i)).map((first) => (
          <Month
            key={first}
            first={first}
            value={value}
            focused={focused}
            today={today}
            reasonFor={reasonFor}
            onPick={pick}
            onKeyDown={onKeyDown}
          />
        ))}
      </div>
      {value.start && (
        <Text size="xs" c="dark.3" ta="center" mt="xs">
          A trip can be up to {DATE_RANGE_LIMIT_DAYS} days long, so only dates within {DATE_RANGE_LIMIT_DAYS} days of
          the pickup can be chosen.
        </Text>
      )}
    </div>
  );
}

function shiftMonth(day: string, n: number): string {
  const target = addMonths(firstOfMonth(day), n);
  const dayOfMonth = Number(day.slice(8, 10));
  return addDays(target, Math.min(dayOfMonth, daysInMonth(target)) - 1);
}

interface MonthProps {
  first: string;
  value: DateRange;
  focused: string;
  today: string;
  reasonFor(day: string): DayBlock | null;
  onPick(day: string): void;
  onKeyDown(e: KeyboardEvent<HTMLButtonElement>, day: string): void;
}

function Month({ first, value, focused, today, reasonFor, onPick, onKeyDown }: MonthProps) {
  const [y, m] = first.split('-').map(Number) as [number, number];
  const lead = weekday(first);
  const count = daysInMonth(first);
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: count }, (_, i) => addDays(first, i)),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  const titleId = `cal-${first}`;
  return (
    <div className={classes.month}>
      <Text id={titleId} fw={600} ta="center" mb={4}>
        {monthTitle(y, m)}
      </Text>
      <table role="grid" aria-labelledby={titleId} className={classes.table}>
        <thead>
          <tr>
            {WEEKDAY_HEADERS.map(([short, long]) => (
              <th key={short} scope="col" abbr={long}>
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, wi) => (
            <tr key={wi}>
              {week.map((day, di) => {
                if (!day) return <td key={di} />;
                const reason = reasonFor(day);
                const isStart = day === value.start;
                const isEnd = day === value.end;
                const inRange = !!value.start && !!value.end && day > value.start && day < value.end;
                const label = `${formatDateLong(day)}${isStart ? ', pickup' : ''}${isEnd ? ', return' : ''}${reason ? `, unavailable: ${DAY_BLOCK_LABELS[reason]}` : ''}`;
                return (
                  <td key={di} role="gridcell" aria-selected={isStart || isEnd || inRange}>
                    <button
                      type="button"
                      data-date={day}
                      className={classes.day}
                      data-selected={isStart || isEnd || undefined}
                      data-in-range={inRange || undefined}
                      data-today={day === today || undefined}
                      data-blocked={reason ?? undefined}
                      aria-disabled={reason ? true : undefined}
                      aria-label={label}
                      tabIndex={day === focused ? 0 : -1}
                      onClick={() => onPick(day)}
                      onKeyDown={(e) => onKeyDown(e, day)}
                    >
                      {Number(day.slice(8, 10))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
