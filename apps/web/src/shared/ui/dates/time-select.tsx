import { NativeSelect } from '@mantine/core';
import { TIME_OPTIONS, bumpToAllowed, isTimeDisabled } from '@ampere/domain/dates';
import { formatTime12 } from '@ampere/domain/format';
import type { LocalDateTime } from '@ampere/domain/time';

export interface TimeSelectProps {
  label: string;
  value: string;
  onChange(time: string): void;
  date: string;
  earliest: LocalDateTime;
}

/** 15-minute steps; on the earliest day, times before the earliest selectable one are disabled. */
export function TimeSelect({ label, value, onChange, date, earliest }: TimeSelectProps) {
  const data = TIME_OPTIONS.map((t) => ({ value: t, label: formatTime12(t), disabled: isTimeDisabled(date, t, earliest) }));
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
