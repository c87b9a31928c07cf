import { Alert, Anchor, Button, Text, Title } from '@mantine/core';
import { Link } from '../../../shared/router/react.tsx';
import type { User } from '@ampere/domain/contract/account';
import type { Reservation } from '@ampere/domain/contract/booking';
import { endingIn } from '@ampere/domain/format';
import {
  insuranceBadgeStatus,
  insuranceVerificationRequired,
  licenseVerificationRequired,
  licenseVerificationStatus,
  KEY_LEAD_MINUTES,
  outstandingForKey,
  securityDepositRequired,
} from '@ampere/domain/verification';
import { paths } from '../../../shared/paths.ts';
import { StatusBadge } from '../../../shared/ui/status-badge.tsx';
import { useInsuranceFlow, useLicenseFlow } from './use-verification-flows.tsx';
import classes from '../components/verification.module.css';

/** The license row's badge and action: verified, or what is wrong and what to do. */
export function licenseRow(user: User | null, trip: { return_at: string; timezone: string } | null, checking: boolean) {
  if (checking) return { badge: 'pending', text: 'Checking your license…', action: null };
  const status = licenseVerificationStatus(user);
  if (!licenseVerificationRequired(user, trip))
    return { badge: 'verified', text: user?.license_number ? endingIn(user.license_number) : '', action: null };
  if (status === 'failed')
    return {
      badge: user?.license_status === 'resubmission' ? 'resubmission' : (user?.license_status ?? 'failed'),
      text: 'The last check did not pass.',
      action: 'Try Again',
    };
  if (status === 'verified')
    return { badge: 'expired', text: 'Your license expires before this trip ends.', action: 'Try Again' };
  return { badge: 'required', text: 'A photo of your license and a selfie.', action: 'Verify' };
}

/**
 * The insurance row: connected, or the latest connection's trouble, or not yet. `failed`: a
 * connection just ended without a policy (the notice under the rows says why): Try Again.
 */
export function insuranceRow(verifications: readonly { status: string }[], checking: boolean, failed = false) {
  if (!insuranceVerificationRequired(verifications)) {
    const ok = verifications.find((v) => v.status === 'ACTIVE' || v.status === 'WAIVED')!;
    return { badge: insuranceBadgeStatus(ok.status), text: 'Your policy covers this trip.', action: null };
  }
  if (checking) return { badge: 'pending', text: 'Checking your policy…', action: null };
  const last = verifications.at(-1);
  if (failed && (!last || last.status === 'PENDING'))
    return { badge: 'failed', text: 'Your policy is not connected yet.', action: 'Try Again' };
  if (last && last.status !== 'PENDING')
    return {
      badge: insuranceBadgeStatus(last.status),
      text: 'Your carrier connection needs attention.',
      action: 'Try Again',
    };
  return { badge: 'required', text: 'Connect the policy you drive with.', action: 'Connect' };
}

function Row({
  label,
  badge,
  text,
  children,
}: {
  label: string;
  badge: string;
  text: string;
  children?: React.ReactNode;
}) {
  return (
    <div className={classes.row} role="group" aria-label={label}>
      <div className={classes.rowText}>
        <Text fw={600} size="sm">
          {label}
        </Text>
        {text && (
          <Text size="xs" c="dimmed">
            {text}
          </Text>
        )}
      </div>
      <div className={classes.rowEnd}>
        <StatusBadge status={badge} />
        {children}
      </div>
    </div>
  );
}

/**
 * Spec 2 (trip detail): the verification card — driver's license, insurance and security deposit —
 * each with its state from the domain rules and what to do next. Hidden for a cancelled trip.
 */
export function TripVerificationCard({ reservation, user }: { reservation: Reservation; user: User | null }) {
  const platformId = reservation.platform_id;
  const unpaid = reservation.status === 'Started';
  const license = useLicenseFlow({ platformId, unpaid });
  const insurance = useInsuranceFlow({ platformId, unpaid });
  const l = licenseRow(user, reservation, license.checking);
  const i = insuranceRow(reservation.insurance_verifications, insurance.checking, insurance.failed);
  const depositNeeded = securityDepositRequired(reservation.transactions);
  // Once nothing stands between the renter and the key, the card says so instead of asking.
  const allDone =
    !license.checking &&
    !insurance.checking &&
    outstandingForKey({ reservation, user, insurance: reservation.insurance_verifications }).length === 0;
  return (
    <section className={classes.panel} aria-labelledby="verification-title">
      <div>
        <Title order={2} size="h4" id="verification-title">
          Verification
        </Title>
        <Text size="sm" c="dimmed">
          {allDone
            ? `All done. Your digital key is ready: it works from ${KEY_LEAD_MINUTES} minutes before pickup.`
            : 'Your digital key is ready once these are done.'}
        </Text>
      </div>
      <div className={classes.rows}>
        <Row label="Driver's License" badge={l.badge} text={l.text}>
          {l.action && (
            <Button size="xs" onClick={() => void license.start()} loading={license.opening}>
              {l.action}
            </Button>
          )}
        </Row>
        <Row label="Insurance" badge={i.badge} text={i.text}>
          {i.action && (
            <Button size="xs" onClick={() => void insurance.start()} loading={insurance.opening}>
              {i.action}
            </Button>
          )}
        </Row>
        <Row
          label="Security Deposit"
          badge={depositNeeded ? 'required' : 'authorized'}
          text={depositNeeded ? 'A $200.00 hold on your card.' : 'A $200.00 hold is on your card.'}
        >
          {depositNeeded && (
            <Anchor component={Link} to={paths.trip.pay(platformId)} size="sm" fw={700} c="ampere.8" underline="always">
              Pay
            </Anchor>
          )}
        </Row>
      </div>
      {license.error && (
        <Alert color="red" mt="sm" role="alert">
          {license.error}
        </Alert>
      )}
      {insurance.notice && (
        <Alert
          color={insurance.notice.tone === 'success' ? 'green' : 'red'}
          mt="sm"
          role={insurance.notice.tone === 'error' ? 'alert' : 'status'}
        >
          {insurance.notice.text}
        </Alert>
      )}
      {license.modal}
      {insurance.modal}
    </section>
  );
}
