import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { birthdayError, latestAllowedBirthday } from '@ampere/domain/account';
import type { LocalDate } from '@ampere/domain/time';

/** 'YYYY-MM-DD' → 'MM-DD-YYYY' (spec 5: shown month-day-year, stored year-month-day). */
export const toShown = (stored: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(stored) ? `${stored.slice(5, 7)}-${stored.slice(8, 10)}-${stored.slice(0, 4)}` : '';
/** 'MM-DD-YYYY' → 'YYYY-MM-DD', or null while incomplete. */
export const toStored = (shown: string) =>
  /^\d{2}-\d{2}-\d{4}$/.test(shown) ? `${shown.slice(6)}-${shown.slice(0, 2)}-${shown.slice(3, 5)}` : null;

/** Digits typed become 'MM-DD-YYYY' as they come. */
export function maskBirthday(value: string): string {
  const d = value.replace(/\D/g, '').slice(0, 8);
  if (d.length <= 2) return d;
  if (d.length <= 4) return `${d.slice(0, 2)}-${d.slice(2)}`;
  return `${d.slice(0, 2)}-${d.slice(2, 4)}-${d.slice(4)}`;
}

/**
 * Date of birth, typed MM-DD-YYYY. Spec 5: no date later than 18 years ago; stored YYYY-MM-DD.
 * A complete, allowed date is handed to onValid (which saves it); a known one is locked.
 */
export function BirthdayField({
  stored,
  locked,
  today,
  onValid,
}: {
  stored: string | null;
  locked: boolean;
  today: LocalDate;
  onValid(value: string): void;
}) {
  const [text, setText] = useState(toShown(stored ?? ''));
  const [error, setError] = useState<string | null>(null);
  const latest = toShown(latestAllowedBirthday(today));

  const check = (shown: string, final: boolean) => {
    const value = toStored(shown);
    if (!value) {
      setError(final && shown ? 'Enter your date of birth as MM-DD-YYYY' : null);
      return;
    }
    const problem = birthdayError(value, today);
    setError(problem);
    if (!problem && value !== stored) onValid(value);
  };

  return (
    <TextInput
      label="Date of birth"
      placeholder="MM-DD-YYYY"
      inputMode="numeric"
      autoComplete="bday"
      value={text}
      readOnly={locked}
      variant={locked ? 'filled' : 'default'}
      description={locked ? 'From your profile' : `You must be 18 or older: born on or before ${latest}.`}
      error={error}
      errorProps={{ role: 'alert' }}
      required
      onChange={(e) => {
        const next = maskBirthday(e.currentTarget.value);
        setText(next);
        if (next.length === 10) check(next, false);
        else setError(null);
      }}
      onBlur={() => !locked && check(text, true)}
    />
  );
}
