import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from '../../../shared/router/react.tsx';
import { formatPhone } from '@ampere/domain/account';
import { formatTotal } from '@ampere/domain/money';
import type { PaymentSecrets, Reservation } from '@ampere/domain/contract/booking';
import { todayIn } from '@ampere/domain/time';
import { endingIn } from '@ampere/domain/format';
import { paths } from '../../../shared/paths.ts';
import { track } from '../../../shared/analytics.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { userQueryOptions } from '../../../shared/auth/get-user.ts';
import { useSession } from '../../../shared/auth/use-session.ts';
import { EmailAddress } from '../../../shared/ui/email-address.tsx';
import { cardKeys, creditCardsQueryOptions } from '../../payments/public/get-credit-cards.ts';
import { reservationKeys, useReservation } from '../public/get-reservation.ts';
import { applyDiscount } from '../api/apply-discount.ts';
import { checkEligibility } from '../api/check-eligibility.ts';
import { confirmReservation } from '../api/confirm-reservation.ts';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment.ts';
import { CancelledNotice } from '../components/cancelled-notice.tsx';
import { payPageCancelWords } from '../cancel-words.ts';
import {
  confirmationTitle,
  hasPendingCharges,
  pendingTotalCents,
  signaturesMissing,
  submitLabel,
} from '../public/booking-rules.ts';
import classes from '../components/booking.module.css';
import { CouponField } from '../components/coupon-field.tsx';
import { DisqualifiedModal } from '../components/disqualified-modal.tsx';
import { PayLoading } from '../components/pay-loading.tsx';
import { NEW_CARD, PaymentMethod } from '../components/payment-method.tsx';
import { type ProfileState, ProfileFields } from '../components/profile-fields.tsx';
import { Toast } from '../components/toast.tsx';
import { TripSummary } from '../components/trip-summary.tsx';
import { type CardSource, type ConfirmWithMethod, payWithGateway } from '../pay-with-gateway.ts';
import { clearSecrets, createPaymentOnce, heldPayment, holdSecrets } from '../payment-secret-store.ts';
import { usePayLoad } from '../use-pay-load.ts';

export const COUPON_FALLBACK = 'Failed to apply coupon code. Please try again.';
/** Spec 9: the loading overlay hides 300 ms after the progress reaches 100. */
const OVERLAY_HIDE_MS = 300;

/** The gateway's confirm with a payment method id: the sandbox's browser call, or Stripe.js. */
function confirmWithFor(secrets: PaymentSecrets): ConfirmWithMethod {
  if (secrets.provider === 'stripe') {
    return async (clientSecret, paymentMethod) =>
      (await import('../components/stripe-pay.tsx')).stripeConfirmWithMethod(
        secrets.publishable_key ?? '',
        clientSecret,
        paymentMethod,
      );
  }
  return (clientSecret, paymentMethod) => confirmSandboxPayment(clientSecret, { payment_method: paymentMethod });
}

/** Spec 8: the coupon error toast shows the server's detail, else its message, else a fixed text. */
function couponMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const detail = (err.data as { detail?: unknown } | undefined)?.detail;
    if (typeof detail === 'string' && detail) return detail;
    if (err.message) return err.message;
  }
  return COUPON_FALLBACK;
}

/** Spec 2's free-cancellation card (new reservations only), true for this booking (decision 053). */
function CancelPromise({ r }: { r: Reservation }) {
  const words = payPageCancelWords(r);
  return (
    <section className={classes.priceBox} data-closed={words.closed || undefined} aria-labelledby="cancel-title">
      <Title order={2} size="h5" id="cancel-title">
        {words.title}
      </Title>
      <Text size="sm">{words.text}</Text>
    </section>
  );
}

/** /trip/:id/pay, 'Review & Pay' (spec 2, 4, 5 and 8). */
export function PayPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const load = usePayLoad(id);
  const reservation = useReservation(id);
  const user = useQuery({ ...userQueryOptions(session?.token ?? ''), enabled: !!session && load.complete });
  const cards = useQuery({ ...creditCardsQueryOptions(), enabled: load.complete && load.outstanding });
  const [overlay, setOverlay] = useState(true);
  const [secrets, setSecrets] = useState<PaymentSecrets | null>(() => heldPayment(id)?.secrets ?? null);
  const [method, setMethod] = useState<string | null>(null);
  const [cardComplete, setCardComplete] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const [profile, setProfile] = useState<ProfileState | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [disqualified, setDisqualified] = useState(false);
  const [paid, setPaid] = useState(false);
  // While paying, the page shows the trip as it stood when the renter pressed pay, until the next
  // page opens: the payment settles it, and a settled trip would read 'You're all caught up!'.
  const [pressed, setPressed] = useState<Reservation | null>(null);
  const r = submitting && pressed ? pressed : reservation.data;
  const confirmNew = useRef<((clientSecret: string) => Promise<string>) | null>(null);
  const saves = useRef(new Set<Promise<unknown>>());
  const leaving = useRef(false);

  useEffect(() => {
    if (!load.complete) return;
    setSecrets(heldPayment(id)?.secrets ?? null);
    const timer = setTimeout(() => setOverlay(false), OVERLAY_HIDE_MS);
    return () => clearTimeout(timer);
  }, [load.complete, id]);
  const picked = useRef(false);
  useEffect(() => {
    // Spec 4: the first saved card is chosen to begin with; without one, a new card. A list read
    // from the cache before the renter's first card was saved is replaced when it refreshes.
    if (!picked.current && cards.data) setMethod(cards.data[0]?.id ?? NEW_CARD);
  }, [cards.data]);
  useEffect(() => {
    // Spec 4: payment sends back to signature if a signature goes missing (e.g. collision protection added elsewhere).
    if (!leaving.current && load.complete && r && r.status !== 'Canceled' && signaturesMissing(r))
      void navigate(paths.trip.signature(id), { replace: true });
  }, [load.complete, r, id, navigate]);
  useEffect(() => {
    // Under the fixed bar on a phone the message could sit out of sight: bring it into view.
    if (submitError)
      document.getElementById('pay-submit-error')?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [submitError]);
  const closeToast = useCallback(() => setToast(null), []);
  const onProfile = useCallback((s: ProfileState) => setProfile(s), []);

  // The payment's own event can refresh the trip, settled, before confirming answers: that is this
  // payment landing too. Received, the pressed button keeps its spinner (the one loader) beside the
  // words, in the bar that stays on a phone's screen, until the trip opens.
  const fresh = reservation.data;
  const received = paid || (submitting && !!fresh && !hasPendingCharges(fresh.transactions));
  if (overlay || !load.complete) return <PayLoading done={load.done} complete={load.complete} />;
  if (!r || !load.user) {
    return (
      <Stack className={classes.page} align="flex-start">
        <Title order={1}>Review &amp; Pay</Title>
        <Text>We couldn't load this trip. Please reload the page.</Text>
        <Anchor c="ampere.8" underline="always" component={Link} to={paths.trip.detail(id)}>
          View My Trip
        </Anchor>
      </Stack>
    );
  }
  if (r.status === 'Canceled') {
    // A cancelled trip has nothing to pay, and is not "all caught up": it says why it ended (decision 053).
    return (
      <Stack className={classes.page} align="flex-start">
        <Title order={1}>This trip is cancelled</Title>
        <Text>There is nothing to pay on it.</Text>
        <CancelledNotice reservation={r} />
        <Anchor c="ampere.8" underline="always" component={Link} to={paths.trip.detail(id)}>
          View My Trip
        </Anchor>
      </Stack>
    );
  }
  if (!hasPendingCharges(r.transactions)) {
    return (
      <Stack className={classes.page} align="flex-start">
        <Title order={1}>You're all caught up!</Title>
        <Text>There is nothing to pay on this trip right now.</Text>
        <Button component={Link} to={paths.trip.detail(id)}>
          View My Trip
        </Button>
      </Stack>
    );
  }

  const provider = secrets?.provider ?? 'sandbox';
  const chosen = method ?? NEW_CARD;
  const isNew = r.status === 'Started';
  const label = submitLabel(r);
  const renter = user.data ?? load.user;
  const profileReady =
    !!profile && !!profile.first && !!profile.last && profile.emailOk && profile.birthdayOk && profile.addressOk;
  // Spec 5: submit is disabled while loading, with an incomplete or unmounted new-card form, or an incomplete profile.
  const newCardReady = chosen !== NEW_CARD || (cardComplete && (provider === 'sandbox' || !!secrets));
  const canSubmit = !submitting && newCardReady && profileReady;

  const apply = async (code: string): Promise<boolean> => {
    try {
      const answer = await applyDiscount(id, code);
      queryClient.setQueryData(reservationKeys.detail(id), answer.reservation);
      holdSecrets(id, answer.stripe);
      setSecrets(answer.stripe);
      if (!answer.stripe && hasPendingCharges(answer.reservation.transactions)) {
        // The discount changed the amount: a payment for the new amount, so the card form has its secret.
        createPaymentOnce(id).then(
          (payment) => {
            queryClient.setQueryData(reservationKeys.detail(id), payment.reservation);
            setSecrets(payment.stripe);
          },
          (err: unknown) => console.error('pay: creating the payment after the coupon failed', err),
        );
      }
      return true;
    } catch (err) {
      console.error('pay: the coupon was refused', err);
      setToast(couponMessage(err));
      return false;
    }
  };

  const submit = async () => {
    if (!canSubmit) return;
    const startedAtSubmit = r.status === 'Started';
    // The confirmation's title is read on the trip as it stood when the renter pressed pay.
    const title = confirmationTitle(r);
    const totalCents = pendingTotalCents(r);
    track('payment_button_clicked', { platform_id: id, total: totalCents, label });
    setPressed(r);
    setSubmitting(true);
    setCardError(null);
    setSubmitError(null);
    try {
      await Promise.allSettled([...saves.current]);
      if (startedAtSubmit) {
        const eligible = await checkEligibility(id);
        track(eligible ? 'reservation_eligibility_check_success' : 'reservation_eligibility_check_failed', {
          platform_id: id,
        });
        if (!eligible) {
          setDisqualified(true);
          setSubmitting(false);
          return;
        }
      }
      let held = heldPayment(id)?.secrets ?? null;
      if (!heldPayment(id)?.chargedWith) {
        // Nothing confirmed yet: ask for the payment again, as the trip may have changed since it was
        // made (a birthday adds the underage fee, a coupon can no longer be used); the server then
        // canceled the old charge (decision 018). The renter pays only the total they were shown.
        let answer: Awaited<ReturnType<typeof createPaymentOnce>>;
        try {
          answer = await createPaymentOnce(id);
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 409)) throw err;
          console.error('pay: the trip changed before paying', err);
          void queryClient.invalidateQueries({ queryKey: reservationKeys.detail(id) });
          setSubmitError(err.message);
          setSubmitting(false);
          return;
        }
        queryClient.setQueryData(reservationKeys.detail(id), answer.reservation);
        held = answer.stripe;
        setSecrets(held);
        const nowTotal = pendingTotalCents(answer.reservation);
        if (nowTotal !== totalCents) {
          setSubmitError(`Your total changed to ${formatTotal(nowTotal)}. Check it, then pay again.`);
          setSubmitting(false);
          return;
        }
      }
      if (held) {
        const source: CardSource =
          chosen === NEW_CARD
            ? {
                kind: 'new',
                confirmNew: (secret) =>
                  confirmNew.current
                    ? confirmNew.current(secret)
                    : Promise.reject(new Error('The card form is still loading. Try again in a moment.')),
              }
            : { kind: 'saved', paymentMethod: chosen };
        try {
          await payWithGateway(id, held, source, confirmWithFor(held));
        } catch (err) {
          // Spec 8: the provider's message under the card form (saved cards too).
          console.error('pay: the card was refused', err);
          setCardError(
            err instanceof Error && err.message
              ? err.message
              : 'Your payment could not be completed. Try another card.',
          );
          // The message shows under the card form, which may be far above the button pressed: bring it into view.
          requestAnimationFrame(() =>
            document.getElementById('payment-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
          );
          track('payment_failed', {
            platform_id: id,
            total: totalCents,
            reason: err instanceof Error ? err.message : String(err),
          });
          setSubmitting(false);
          return;
        }
      }
      const confirmed = await confirmReservation(id);
      leaving.current = true;
      setPaid(true);
      clearSecrets(id);
      queryClient.setQueryData(reservationKeys.detail(id), confirmed);
      void queryClient.invalidateQueries({ queryKey: reservationKeys.all });
      // A new card was saved with the payment: the next payment offers it first.
      void queryClient.invalidateQueries({ queryKey: cardKeys.all });
      track('payment_completed', { platform_id: id, total: totalCents });
      // Spec 4: a new (Started) reservation goes to the trip page; anything else to the confirmation.
      void navigate(startedAtSubmit ? paths.trip.detail(id) : paths.trip.confirmation(id), {
        state: startedAtSubmit ? { booked: true } : { title },
      });
    } catch (err) {
      console.error('pay: the payment could not be completed', err);
      track('payment_failed', {
        platform_id: id,
        total: totalCents,
        reason: err instanceof Error ? err.message : String(err),
      });
      setSubmitError("We couldn't complete your payment. Please try again.");
      setSubmitting(false);
    }
  };

  return (
    <form
      className={`${classes.page} ${classes.wide}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Title order={1} mb="md">
        Review &amp; Pay
      </Title>
      <div className={classes.twoCol}>
        <Stack gap="lg">
          <section className={classes.panel} aria-labelledby="coupon-title">
            <Title order={2} size="h4" id="coupon-title" mb="xs">
              Coupon
            </Title>
            <CouponField onApply={apply} />
          </section>
          <section className={classes.panel} aria-labelledby="payment-title">
            <Title order={2} size="h4" id="payment-title" mb="xs">
              Payment
            </Title>
            <PaymentMethod
              cards={cards.data ?? []}
              value={chosen}
              onChange={(v) => {
                picked.current = true;
                setMethod(v);
                setCardError(null);
              }}
              provider={provider}
              error={cardError}
              form={{
                clientSecret: secrets ? secrets.client_secret || secrets.deposit_client_secret : null,
                publishableKey: secrets?.publishable_key ?? null,
                confirmRef: confirmNew,
                onCompleteChange: setCardComplete,
                disabled: submitting,
              }}
            />
          </section>
          <section className={classes.panel} aria-labelledby="renter-title">
            <Title order={2} size="h4" id="renter-title" mb="xs">
              Driver details
            </Title>
            <dl className={classes.details}>
              <div>
                <dt>Phone</dt>
                <dd>{renter.phone ? formatPhone(renter.phone) : '—'}</dd>
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
            <ProfileFields
              user={load.user}
              today={todayIn(new Date(), r.timezone)}
              onStateChange={onProfile}
              saves={saves}
            />
          </section>
          {isNew && <CancelPromise r={r} />}
        </Stack>
        <div className={classes.aside}>
          <TripSummary reservation={r} />
        </div>
      </div>
      {load.notice && !submitError && (
        <Text role="status" size="sm" mt="md">
          {load.notice}
        </Text>
      )}
      {submitError && (
        <Text role="alert" c="red.9" size="sm" mt="md" id="pay-submit-error">
          {submitError}
        </Text>
      )}
      <div className={classes.actions} style={{ marginTop: 20 }}>
        <Button variant="default" onClick={() => void navigate(-1)} disabled={submitting}>
          Back
        </Button>
        {/* Under 768 px the total and the submit button stay at the foot of the screen. */}
        <div className={classes.payBar}>
          {received ? (
            <div role="status">
              <Text size="sm" fw={700}>
                Payment received.
              </Text>
              <Text size="xs" c="dark.3">
                Opening your trip…
              </Text>
            </div>
          ) : (
            <div className={classes.payBarTotal} aria-hidden="true">
              <Text size="xs" c="dark.3">
                Due now
              </Text>
              <Text fw={700}>{formatTotal(pendingTotalCents(r))}</Text>
            </div>
          )}
          <Button type="submit" size="md" disabled={!canSubmit} loading={submitting}>
            {label}
          </Button>
        </div>
      </div>
      <DisqualifiedModal opened={disqualified} onClose={() => setDisqualified(false)} />
      <Toast message={toast} onClose={closeToast} />
    </form>
  );
}
