import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useEffect, useState } from 'react';
import { emailError } from '@ampere/domain/account';
import type { ProfilePatchBody, SuggestedAddress, User } from '@ampere/domain/contract/account';
import type { LocalDate } from '@ampere/domain/time';
import { track } from '../../../shared/analytics.ts';
import { updateProfile } from '../api/update-profile.ts';
import { AddressField } from './address-field.tsx';
import { BirthdayField } from './birthday-field.tsx';

export interface ProfileState {
  first: string;
  last: string;
  emailOk: boolean;
  birthdayOk: boolean;
  addressOk: boolean;
}

/** Spec 5: paying needs a first and last name, a saved email, a date of birth and an address. */
export const isProfileComplete = (p: ProfileState | null): boolean =>
  !!p && !!p.first && !!p.last && p.emailOk && p.birthdayOk && p.addressOk;

const knownAddress = (u: User): SuggestedAddress | null =>
  u.address_line1 && u.city && u.state && u.zip_code
    ? { street_line: u.address_line1, secondary: '', city: u.city, state: u.state, zipcode: u.zip_code }
    : null;

/**
 * The profile fields the payment page collects (spec 2 and 5): first and last name, email, date of
 * birth and address. Known name, email and birth date are locked. Each field is saved to the
 * profile as soon as it is valid; those saves are kept in `saves` so submitting can wait for them.
 */
export function ProfileFields({
  user,
  today,
  onStateChange,
  saves,
}: {
  user: User;
  today: LocalDate;
  onStateChange(state: ProfileState): void;
  saves: RefObject<Set<Promise<unknown>>>;
}) {
  const queryClient = useQueryClient();
  const locked = {
    first: !!user.first_name?.trim(),
    last: !!user.last_name?.trim(),
    email: !!user.email?.trim(),
    birthday: !!user.birthday,
  };
  const [first, setFirst] = useState(user.first_name ?? '');
  const [last, setLast] = useState(user.last_name ?? '');
  const [email, setEmail] = useState(user.email ?? '');
  const [emailProblem, setEmailProblem] = useState<string | null>(null);
  const [emailSaved, setEmailSaved] = useState(!!user.email && !emailError(user.email));
  const [birthdayOk, setBirthdayOk] = useState(!!user.birthday);
  const [address, setAddress] = useState<SuggestedAddress | null>(knownAddress(user));
  const [line2, setLine2] = useState(user.address_line2 ?? '');

  useEffect(() => {
    onStateChange({ first: first.trim(), last: last.trim(), emailOk: emailSaved, birthdayOk, addressOk: !!address });
  }, [first, last, emailSaved, birthdayOk, address, onStateChange]);

  const save = (body: ProfilePatchBody, what: string, after?: () => void) => {
    const call = updateProfile(queryClient, body).then(
      () => after?.(),
      (err: unknown) => {
        console.error(`pay: saving the ${what} to the profile failed`, err);
        throw err;
      },
    );
    saves.current.add(call);
    const forget = () => saves.current.delete(call);
    call.then(forget, forget);
    return call;
  };

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="First name"
          required
          autoComplete="given-name"
          value={first}
          readOnly={locked.first}
          variant={locked.first ? 'filled' : 'default'}
          onChange={(e) => setFirst(e.currentTarget.value)}
          onBlur={() => {
            if (!locked.first && first.trim() && first.trim() !== user.first_name)
              save({ first_name: first.trim() }, 'first name').catch(() => {});
          }}
        />
        <TextInput
          label="Last name"
          required
          autoComplete="family-name"
          value={last}
          readOnly={locked.last}
          variant={locked.last ? 'filled' : 'default'}
          onChange={(e) => setLast(e.currentTarget.value)}
          onBlur={() => {
            if (!locked.last && last.trim() && last.trim() !== user.last_name)
              save({ last_name: last.trim() }, 'last name').catch(() => {});
          }}
        />
      </SimpleGrid>
      <TextInput
        label="Email"
        type="email"
        required
        autoComplete="email"
        value={email}
        readOnly={locked.email}
        variant={locked.email ? 'filled' : 'default'}
        error={emailProblem}
        errorProps={{ role: 'alert' }}
        onChange={(e) => {
          setEmail(e.currentTarget.value);
          setEmailProblem(null);
          setEmailSaved(false);
        }}
        onBlur={() => {
          if (locked.email) return;
          // Spec 5: empty → 'Email is required'; a bad format → 'Please enter a valid email address'; valid → saved.
          const problem = emailError(email);
          setEmailProblem(problem);
          if (!problem)
            save({ email: email.trim() }, 'email', () => setEmailSaved(true)).catch(() =>
              setEmailProblem('We could not save your email. Please try again.'),
            );
        }}
      />
      <BirthdayField
        stored={user.birthday}
        locked={locked.birthday}
        today={today}
        onValid={(value) => {
          setBirthdayOk(false);
          save({ birthday: value }, 'birthday', () => {
            setBirthdayOk(true);
            track('user_birthday_updated', {});
          }).catch(() => {});
        }}
      />
      <AddressField
        initial={knownAddress(user)}
        onUnset={() => setAddress(null)}
        onPick={(a) => {
          save(
            {
              address_line1: a.street_line,
              address_line2: a.secondary || line2.trim() || null,
              city: a.city,
              state: a.state,
              zip_code: a.zipcode,
              country: 'us',
            },
            'address',
            () => {
              setAddress(a);
              track('user_address_updated', { city: a.city, state: a.state });
            },
          ).catch(() => {});
        }}
      />
      <TextInput
        label="Apartment, suite or unit (optional)"
        autoComplete="address-line2"
        value={line2}
        onChange={(e) => setLine2(e.currentTarget.value)}
        onBlur={() => {
          if (line2.trim() !== (user.address_line2 ?? ''))
            save({ address_line2: line2.trim() || null }, 'address line 2').catch(() => {});
        }}
      />
    </Stack>
  );
}
