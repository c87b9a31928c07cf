import { Text } from '@mantine/core';
import { licenseBadge } from '@ampere/domain/account';
import type { User } from '@ampere/domain/contract/account';
import { endingIn } from '@ampere/domain/format';
import { todayIn } from '@ampere/domain/time';
import { StatusBadge } from '../../../shared/ui/status-badge.tsx';
import classes from './profile.module.css';
import { Section } from './section.tsx';

/** Spec 2: the driver's license on file: name, the last 4 of its number and its badge. */
export function LicenseSection({ user, loading }: { user: User | null; loading: boolean }) {
  const number = user?.license_number?.trim();
  const today = todayIn(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);
  return (
    <Section
      title="Driver's License"
      loading={loading}
      empty={number ? null : ["No Driver's Licenses", "Book a vehicle to verify your driver's license"]}
    >
      {number && (
        <div className={classes.row}>
          <div className={classes.grow}>
            <Text fw={600}>{user?.license_name ?? 'Driver\u2019s license'}</Text>
            <Text size="sm" c="dimmed">
              {endingIn(number)}
            </Text>
          </div>
          {/* A check that did not pass says so (unless staff let it through, decision 094); an approved license shows 'active' or 'expired' (spec 4). */}
          <StatusBadge
            status={
              user?.license_status && user.license_status !== 'approved' && !user.license_override
                ? user.license_status
                : licenseBadge(user?.license_expiration ?? null, today)
            }
          />
        </div>
      )}
    </Section>
  );
}
