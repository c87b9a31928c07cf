import { Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { userQueryOptions } from '../../../shared/auth/get-user.ts';
import { useSession } from '../../../shared/auth/use-session.ts';
import { useRealtimeEvent } from '../../../shared/realtime/use-realtime-event.ts';
import { useCreditCards } from '../../payments/public/get-credit-cards.ts';
import { useRecentInsurance } from '../../verification/public/get-recent-insurance.ts';
import { CardsSection } from '../components/cards-section.tsx';
import { InsuranceSection } from '../components/insurance-section.tsx';
import { LicenseSection } from '../components/license-section.tsx';
import { ProfileCard } from '../components/profile-card.tsx';
import classes from '../components/profile.module.css';

/** Logs a failed profile call (spec 8: profile data failures are only logged; loading ends). */
function useLogFailure(what: string, error: unknown) {
  useEffect(() => {
    if (error) console.error(`Could not load ${what}`, error);
  }, [what, error]);
}

/** Spec 2: the profile card, driver's license, insurance connections and saved cards. */
export function ProfilePage() {
  const session = useSession();
  // The stored renter shows at once; the server's copy replaces it when it arrives.
  const user = useQuery({
    ...userQueryOptions(session?.token ?? ''),
    enabled: !!session,
    placeholderData: session?.user ?? undefined,
  });
  const insurance = useRecentInsurance();
  const queryClient = useQueryClient();
  // Spec 4: insurance events refresh the connections shown.
  const refreshInsurance = () => void queryClient.invalidateQueries({ queryKey: ['insurance'] });
  useRealtimeEvent('insurance-completed', refreshInsurance);
  useRealtimeEvent('insurance-failed', refreshInsurance);
  const cards = useCreditCards();
  useLogFailure('the renter', user.error);
  useLogFailure('insurance connections', insurance.error);
  useLogFailure('saved cards', cards.error);
  const renter = user.data ?? null;

  return (
    <div className={classes.layout}>
      <Title order={1} className="visually-hidden">
        Profile
      </Title>
      <ProfileCard user={renter} loading={user.isPending} />
      <div className={classes.sections}>
        <LicenseSection user={renter} loading={user.isPending} />
        <InsuranceSection verifications={insurance.data?.insurance_verifications ?? []} loading={insurance.isPending} />
        <CardsSection cards={cards.data ?? []} loading={cards.isPending} />
      </div>
    </div>
  );
}
