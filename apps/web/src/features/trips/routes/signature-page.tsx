import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from '../../../shared/router/react.tsx';
import type { RentalType } from '@ampere/domain/contract/booking';
import { todayIn } from '@ampere/domain/time';
import { paths, patterns } from '../../../shared/paths.ts';
import { track } from '../../../shared/analytics.ts';
import { useClientConfig } from '../../../shared/api/config.ts';
import { userQueryOptions } from '../../../shared/auth/get-user.ts';
import { useSession } from '../../../shared/auth/use-session.ts';
import { getReservation, reservationKeys, useReservation } from '../public/get-reservation.ts';
import { createAgreement } from '../api/create-agreement.ts';
import { updateProfile } from '../api/update-profile.ts';
import { hasDamageWaiverOn, signaturesMissing, signaturesNeeded } from '../public/booking-rules.ts';
import classes from '../components/booking.module.css';
import { ChoiceGroup } from '../components/choice-group.tsx';
import { waiverContractQuery } from '../waiver-terms.ts';
import '../../../shared/ui/mantine-extra-styles.ts';

/**
 * /trip/:id/signature, 'Your Signature' (spec 2, 4 and 5). Next is enabled only when all three
 * consents are checked, both names are filled in and a purpose is chosen; it saves the name to the
 * profile, signs the agreements the trip still needs and goes to payment. A trip with nothing left
 * to sign goes straight to payment.
 */
export function SignaturePage() {
  const { id } = useParams(patterns.trip.signature);
  const navigate = useNavigate();
  // Sent here by the booking header's Review & Pay while something is still to sign.
  const signFirst = !!(useLocation().state as { signFirst?: boolean } | null)?.signFirst;
  const queryClient = useQueryClient();
  const { productName } = useClientConfig();
  const session = useSession();
  // Fresh from the server: the names decide what is prefilled and locked.
  const user = useQuery({
    ...userQueryOptions(session?.token ?? ''),
    enabled: !!session,
    staleTime: 0,
    placeholderData: session?.user ?? undefined,
  });
  const reservation = useReservation(id);
  const r = reservation.data;
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [rentalType, setRentalType] = useState<RentalType | null>(null);
  const [consents, setConsents] = useState({ credit: false, digital: false, agreement: false });
  const [saving, setSaving] = useState(false);
  const leaving = useRef(false);

  // The server's copy decides (the stored renter shown meanwhile may be out of date).
  const known = user.isPlaceholderData ? undefined : user.data;
  const locked = !!known?.first_name?.trim() && !!known?.last_name?.trim();
  const knownFirst = known?.first_name?.trim() ?? '';
  const knownLast = known?.last_name?.trim() ?? '';
  useEffect(() => {
    // Spec 5: with both names on the profile, the fields are filled in and locked; otherwise a
    // known one fills an empty field.
    if (knownFirst && knownLast) {
      setFirst(knownFirst);
      setLast(knownLast);
      return;
    }
    if (knownFirst) setFirst((v) => v || knownFirst);
    if (knownLast) setLast((v) => v || knownLast);
  }, [knownFirst, knownLast]);
  useEffect(() => {
    if (r?.rental_type) setRentalType((v) => v ?? r.rental_type);
  }, [r?.rental_type]);

  useEffect(() => {
    if (leaving.current || !r) return;
    // Spec 4: both agreements already signed → payment.
    if (!signaturesMissing(r)) {
      leaving.current = true;
      void navigate(paths.trip.pay(id), { replace: true });
    }
  }, [r, id, navigate]);
  useEffect(() => {
    if (reservation.error) console.error('signature: the trip could not be loaded', reservation.error);
  }, [reservation.error]);

  if (reservation.error) {
    return (
      <Stack className={classes.page} align="flex-start">
        <Title order={1}>Your Signature</Title>
        <Text>We couldn't load this trip.</Text>
        <Anchor c="ampere.8" underline="always" component={Link} to={paths.trips()}>
          Go to My Trips
        </Anchor>
      </Stack>
    );
  }
  if (!r || !signaturesMissing(r)) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading your trip" />
      </Center>
    );
  }

  const need = signaturesNeeded(r);
  const waiverOn = hasDamageWaiverOn(r);
  const canSubmit =
    consents.credit &&
    consents.digital &&
    consents.agreement &&
    first.trim() !== '' &&
    last.trim() !== '' &&
    rentalType !== null &&
    !saving;

  const next = async () => {
    if (!canSubmit || !rentalType) return;
    setSaving(true);
    const signature = `${first.trim()} ${last.trim()}`;
    try {
      // Spec 5: the profile is first updated with first_name and last_name when both are present.
      if (!locked) await updateProfile(queryClient, { first_name: first.trim(), last_name: last.trim() });
      const date = todayIn(new Date(), r.timezone);
      const types = [
        ...(need.rentalAgreement ? (['RENTAL_AGREEMENT'] as const) : []),
        ...(need.damageWaiver ? (['DAMAGE_WAIVER'] as const) : []),
      ];
      // Both at once, so the renter waits for one answer, not two in turn. Each type is signed at
      // most once (a repeat answers the one signed), so Next after a failure only adds what is missing.
      await Promise.all(
        types.map((type) => createAgreement({ type, platform_id: id, signature, date, rental_type: rentalType })),
      );
      track('agreements_signed', { platform_id: id, types, rental_type: rentalType });
      leaving.current = true;
      queryClient.setQueryData(reservationKeys.detail(id), await getReservation(id));
      void navigate(paths.trip.pay(id));
    } catch (err) {
      // Spec 8: a rental agreement creation error is only logged; the renter can press Next again.
      console.error('signature: signing the agreements failed', err);
      setSaving(false);
    }
  };

  return (
    <form
      className={classes.page}
      onSubmit={(e) => {
        e.preventDefault();
        void next();
      }}
      noValidate
    >
      <Stack gap="lg">
        <div>
          <Title order={1}>Your Signature</Title>
          <Text mt={6}>Your signature must match the name on your driver's license, insurance and payment method.</Text>
        </div>
        {signFirst && (
          <Alert
            color="yellow"
            role="status"
            title="Sign first, then pay"
            styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
          >
            Review &amp; Pay comes after your signature: fill in this page and press Next to go on to it.
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="First name"
            value={first}
            onChange={(e) => setFirst(e.currentTarget.value)}
            readOnly={locked}
            variant={locked ? 'filled' : 'default'}
            required
            autoComplete="given-name"
            description={locked ? 'From your profile' : undefined}
          />
          <TextInput
            label="Last name"
            value={last}
            onChange={(e) => setLast(e.currentTarget.value)}
            readOnly={locked}
            variant={locked ? 'filled' : 'default'}
            required
            autoComplete="family-name"
            description={locked ? 'From your profile' : undefined}
          />
        </SimpleGrid>
        <ChoiceGroup<RentalType>
          legend="Purpose of rental"
          name="rental-type"
          row
          value={rentalType}
          onChange={setRentalType}
          options={[
            { value: 'BUSINESS', label: 'Business' },
            { value: 'LEISURE', label: 'Leisure' },
          ]}
        />
        <Stack gap="sm" role="group" aria-label="Consents">
          <Checkbox
            checked={consents.credit}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setConsents((c) => ({ ...c, credit: on }));
            }}
            label={`I authorize ${productName} to run a soft credit pre-qualification check. It does not affect my credit score.`}
          />
          <Checkbox
            checked={consents.digital}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setConsents((c) => ({ ...c, digital: on }));
            }}
            label="I agree to sign these documents digitally, and that my typed name is my signature."
          />
          <Checkbox
            checked={consents.agreement}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setConsents((c) => ({ ...c, agreement: on }));
            }}
            label={
              waiverOn
                ? 'I have read and agree to the Rental Agreement and the Collision Protection waiver contract.'
                : 'I have read and agree to the Rental Agreement.'
            }
          />
        </Stack>
        <Group gap="lg">
          <Anchor
            c="ampere.8"
            underline="always"
            href={paths.rentalAgreement()}
            target="_blank"
            rel="noopener"
            size="sm"
          >
            Rental Agreement (opens in a new tab)
          </Anchor>
          <Anchor
            c="ampere.8"
            underline="always"
            href={paths.waiverContract(waiverContractQuery(r))}
            target="_blank"
            rel="noopener"
            size="sm"
          >
            Waiver contract (opens in a new tab)
          </Anchor>
        </Group>
        <div className={classes.actions}>
          <Button variant="default" onClick={() => void navigate(-1)} disabled={saving}>
            Back
          </Button>
          <Button type="submit" disabled={!canSubmit} loading={saving}>
            Next
          </Button>
        </div>
      </Stack>
    </form>
  );
}
