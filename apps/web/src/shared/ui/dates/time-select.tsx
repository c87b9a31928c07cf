import { NativeSelect } from '@mantine/core';
import { TIME_OPTIONS, bumpToAllowed, isTimeDisabled } from '@ampere/domain/dates';
import { formatTime12 } from '@ampere/domain/format';
import type { LocalDateTime, LocalTime } from '@ampere/domain/time';

export interface TimeSelectProps {
  label: string;
  value: string;
  onChange(time: string): void;
  date: string;
  earliest: LocalDateTime;
  /** Times the car is booked for (decision 015): shown, marked and disabled. */
  isBooked?(time: LocalTime): boolean;
}

/**
 * 15-minute steps; on the earliest day, times before the earliest selectable one are disabled,
 * and so are times that clash with the car's bookings.
 */
export function TimeSelect({ label, value, onChange, date, earliest, isBooked }: TimeSelectProps) {
  const data = TIME_OPTIONS.map((t) => {
    const booked = isBooked?.(t) ?? false;
    return {
      value: t,
      label: booked ? `${formatTime12(t)} (booked)` : formatTime12(t),
      disabled: booked || isTimeDisabled(date, t, earliest),
    };
  });
  return (
    <NativeSelect
      label={label}
      value={value}
      data={data}
      onChange={(e) => {
        const next = bumpToAllowed({ date, time: e.currentTarget.value }, earliest);
        onChange(next.date === date ? next.time : e.currentTarget.value);
      }}
    />
  );
}
