import { Text } from '@mantine/core';
import { insuranceBadgeStatus } from '@ampere/domain/verification';
import { StatusBadge } from '../../../shared/ui/status-badge.tsx';
import type { InsuranceVerification } from '../../verification/public/get-recent-insurance.ts';
import classes from './profile.module.css';
import { Section } from './section.tsx';

/** Spec 2: insurance connections: carrier, '......' and the last 3 of the policy number, and the status badge. */
export function InsuranceSection({
  verifications,
  loading,
}: {
  verifications: InsuranceVerification[];
  loading: boolean;
}) {
  const rows = verifications.flatMap((v) =>
    v.policies.map((p, i) => ({ key: `${v.id}-${i}`, status: v.status, ...p })),
  );
  return (
    <Section
      title="Insurance Connections"
      loading={loading}
      empty={rows.length ? null : ['No Insurance Connections', 'Book a vehicle to create an insurance connection']}
    >
      {rows.map((r) => (
        <div key={r.key} className={classes.row}>
          <div className={classes.grow}>
            <Text fw={600}>{r.axle_policy_carrier}</Text>
            <Text size="sm" c="dimmed">
              ......{r.axle_policy_number.slice(-3)}
            </Text>
          </div>
          <StatusBadge status={insuranceBadgeStatus(r.status)} />
        </div>
      ))}
    </Section>
  );
}
