import { Button, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';
import { adventuringSince, hasProfileCard } from '@ampere/domain/account';
import type { User } from '@ampere/domain/contract/account';
import { paths } from '../../../shared/paths.ts';
import { PhoneNumber } from '../../../shared/ui/phone-number.tsx';
import { EmailAddress } from '../../../shared/ui/email-address.tsx';
import classes from './profile.module.css';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Spec 2: the profile card, with the renter's data only when first name and email exist. */
export function ProfileCard({ user, loading }: { user: User | null; loading: boolean }) {
  if (loading) {
    return (
      <section className={classes.panel} aria-label="Your Profile" aria-busy>
        <Stack gap="sm">
          <Skeleton height={56} circle />
          <Skeleton height={24} width="60%" />
          <Skeleton height={16} />
          <Skeleton height={16} width="80%" />
        </Stack>
      </section>
    );
  }
  if (!user || !hasProfileCard(user)) {
    return (
      <section className={classes.panel} aria-labelledby="profile-card-title">
        <Title order={2} size="h3" id="profile-card-title">
          Your Profile
        </Title>
        <Text mt="xs">You don't have any trips yet</Text>
        <Button component={Link} to={paths.search()} mt="md" fullWidth>
          Start a reservation
        </Button>
      </section>
    );
  }
  return (
    <section className={classes.panel} aria-labelledby="profile-card-title">
      <Stack gap={6}>
        <div className={classes.avatar} aria-hidden="true">
          {user.first_name!.trim().charAt(0).toUpperCase()}
        </div>
        <Title order={2} size="h3" id="profile-card-title">
          {user.first_name}
        </Title>
        <Text size="sm" c="dimmed">
          {adventuringSince(user.created_at, browserZone())}
        </Text>
        <Text>
          <EmailAddress email={user.email ?? ''} />
        </Text>
        <Text>
          <PhoneNumber e164={user.phone} />
        </Text>
        <Button component={Link} to={paths.trips()} mt="sm" fullWidth>
          My Trips
        </Button>
      </Stack>
    </section>
  );
}
