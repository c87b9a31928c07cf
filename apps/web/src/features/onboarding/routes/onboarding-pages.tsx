import { Alert, Anchor, Button, Container, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../shared/router/react.tsx';
import type { User } from '@ampere/domain/contract/account';
import { paths } from '../../../shared/paths.ts';
import { userQueryOptions } from '../../../shared/auth/get-user.ts';
import { useSession } from '../../../shared/auth/use-session.ts';
import { useRecentInsurance } from '../../verification/public/get-recent-insurance.ts';
import { insuranceRow, licenseRow } from '../../verification/public/verification-card.tsx';
import { useInsuranceFlow, useLicenseFlow } from '../../verification/public/use-verification-flows.tsx';
import { StepCard } from '../../verification/public/step-card.tsx';

function useRenter(): User | null {
  const session = useSession();
  const user = useQuery({
    ...userQueryOptions(session?.token ?? ''),
    enabled: !!session,
    placeholderData: session?.user ?? undefined,
  });
  return user.data ?? null;
}

/** The renter's insurance connections, oldest first, as the rules read them. */
function useConnections() {
  const recent = useRecentInsurance();
  return [...(recent.data?.insurance_verifications ?? [])].reverse();
}

function LicenseStep({ user }: { user: User | null }) {
  const flow = useLicenseFlow({});
  return (
    <StepCard
      id="license-step"
      title="Driver's License"
      row={licenseRow(user, null, flow.checking)}
      start={flow.start}
      opening={flow.opening}
    >
      {flow.error && (
        <Alert color="red" role="alert">
          {flow.error}
        </Alert>
      )}
      {flow.modal}
    </StepCard>
  );
}

function InsuranceStep() {
  const flow = useInsuranceFlow({});
  return (
    <StepCard
      id="insurance-step"
      title="Insurance"
      row={insuranceRow(useConnections(), flow.checking, flow.failed)}
      start={flow.start}
      opening={flow.opening}
    >
      {flow.notice && (
        <Alert
          color={flow.notice.tone === 'success' ? 'green' : 'red'}
          role={flow.notice.tone === 'error' ? 'alert' : 'status'}
        >
          {flow.notice.text}
        </Alert>
      )}
      {flow.modal}
    </StepCard>
  );
}

/** /onboarding: get ready before booking — verify a license and connect insurance once, for every trip. */
export function OnboardingPage() {
  const user = useRenter();
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <div>
          <Title order={1}>Get started</Title>
          <Text c="dimmed">
            Verify your driver's license and connect your insurance now, and your next trip's key is ready as soon as
            you pay.
          </Text>
        </div>
        <LicenseStep user={user} />
        <InsuranceStep />
        <Button component={Link} to={paths.search()} variant="light">
          Search Vehicles
        </Button>
      </Stack>
    </Container>
  );
}

/** One onboarding step on its own page, with the way back. */
function StepPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        {children}
        <Anchor component={Link} to={paths.onboarding.start()} c="ampere.8" underline="always">
          Back to Get started
        </Anchor>
      </Stack>
    </Container>
  );
}

/** /onboarding/license/verification */
export function LicenseOnboardingPage() {
  const user = useRenter();
  return (
    <StepPage title="License Verification">
      <LicenseStep user={user} />
    </StepPage>
  );
}

/** /onboarding/insurance/verification */
export function InsuranceOnboardingPage() {
  return (
    <StepPage title="Insurance Verification">
      <InsuranceStep />
    </StepPage>
  );
}
