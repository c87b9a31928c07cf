import { Title } from '@mantine/core';
import type { RefObject } from 'react';
import type { User } from '@ampere/domain/contract/account';
import { endingIn } from '@ampere/domain/format';
import type { LocalDate } from '@ampere/domain/time';
import { EmailAddress } from '../../../shared/ui/email-address.tsx';
import { PhoneNumber } from '../../../shared/ui/phone-number.tsx';
import classes from './booking.module.css';
import { type ProfileState, ProfileFields } from './profile-fields.tsx';

/**
 * Review & Pay's driver section (spec 2): the renter's phone, license and email as read, then the
 * profile fields the payment needs (the prefill from the renter as loaded).
 */
export function DriverPanel(props: {
  renter: User;
  loaded: User;
  today: LocalDate;
  onProfile(state: ProfileState): void;
  saves: RefObject<Set<Promise<unknown>>>;
}) {
  const { renter, loaded, today, onProfile, saves } = props;
  return (
    <section className={classes.panel} aria-labelledby="renter-title">
      <Title order={2} size="h4" id="renter-title" mb="xs">
        Driver details
      </Title>
      <dl className={classes.details}>
        <div>
          <dt>Phone</dt>
          <dd>{renter.phone ? <PhoneNumber e164={renter.phone} /> : '—'}</dd>
        </div>
        <div>
          <dt>Driver's license</dt>
          <dd>{renter.license_number ? endingIn(renter.license_number) : 'Verified after booking'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{renter.email ? <EmailAddress email={renter.email} /> : '—'}</dd>
        </div>
      </dl>
      <ProfileFields user={loaded} today={today} onStateChange={onProfile} saves={saves} />
    </section>
  );
}
