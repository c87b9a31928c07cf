import { Stack, Title } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { todayIn } from '@ampere/domain/time';
import {
  groupedLines,
  hasPendingCharges,
  pendingCharges,
  pendingTotalCents,
  submitLabel,
} from '../public/booking-rules.ts';
import { useParams } from '../../../shared/router/react.tsx';
import classes from '../components/booking.module.css';
import { CancelPromise } from '../components/cancel-promise.tsx';
import { type AppliedCoupon, CouponPanel } from '../components/coupon-panel.tsx';
import type { Reservation } from '@ampere/domain/contract/booking';
import { DisqualifiedModal } from '../components/disqualified-modal.tsx';
import { DriverPanel } from '../components/driver-panel.tsx';
import { PayBar } from '../components/pay-bar.tsx';
import { PayLoading } from '../components/pay-loading.tsx';
import { AllCaughtUp, PayCancelled, PayLoadFailed } from '../components/pay-states.tsx';
import { PaymentPanel } from '../components/payment-panel.tsx';
import { type ProfileState, isProfileComplete } from '../components/profile-fields.tsx';
import { Toast } from '../components/toast.tsx';
import { TripSummary } from '../components/trip-summary.tsx';
import { useCardChoice } from '../use-card-choice.ts';
import { useCoupon } from '../use-coupon.ts';
import { useBackToSignature, usePayData } from '../use-pay-data.ts';
import { usePaySubmit } from '../use-pay-submit.ts';

/** The coupon on the trip and what it takes off what is due now (the breakdown's discount line), if any. */
function appliedCoupon(r: Reservation): AppliedCoupon | null {
  const cents = groupedLines(pendingCharges(r)).reduce((sum, l) => sum + l.discountCents, 0);
  return r.discount_code && cents > 0 ? { code: r.discount_code, cents } : null;
}

/**
 * /trip/:id/pay, 'Review & Pay' (spec 2, 4, 5 and 8): what the page reads (usePayData), the card
 * (useCardChoice), the coupon (useCoupon) and paying (usePaySubmit), drawn as its sections.
 */
export function PayPage() {
  const { id = '' } = useParams();
  const { load, trip, renter, cards, overlay } = usePayData(id);
  const card = useCardChoice(id, load.complete, cards);
  const [profile, setProfile] = useState<ProfileState | null>(null);
  const onProfile = useCallback((s: ProfileState) => setProfile(s), []);
  const saves = useRef(new Set<Promise<unknown>>());
  const pay = usePaySubmit({
    id,
    trip,
    // Spec 5: submit is disabled while loading, with an incomplete or unmounted new-card form, or an incomplete profile.
    ready: card.ready && isProfileComplete(profile),
    method: card.chosen,
    confirmNew: card.confirmNew,
    saves,
    onSecrets: card.setSecrets,
  });
  const coupon = useCoupon(id, card.setSecrets);
  const r = pay.shown;
  useBackToSignature(id, load.complete, r, pay.leaving);

  if (overlay || !load.complete) return <PayLoading done={load.done} complete={load.complete} />;
  if (!r || !load.user || !renter) return <PayLoadFailed id={id} />;
  if (r.status === 'Canceled') return <PayCancelled id={id} r={r} />;
  if (!hasPendingCharges(r.transactions)) return <AllCaughtUp id={id} />;

  return (
    <form
      className={`${classes.page} ${classes.wide}`}
      onSubmit={(e) => {
        e.preventDefault();
        void pay.submit();
      }}
      noValidate
    >
      <Title order={1} mb="md">
        Review &amp; Pay
      </Title>
      <div className={classes.twoCol}>
        <Stack gap="lg">
          <CouponPanel onApply={coupon.apply} applied={appliedCoupon(r)} />
          <PaymentPanel
            cards={cards ?? []}
            card={card}
            error={pay.cardError}
            onChoose={pay.clearCardError}
            disabled={pay.submitting}
          />
          <DriverPanel
            renter={renter}
            loaded={load.user}
            today={todayIn(new Date(), r.timezone)}
            onProfile={onProfile}
            saves={saves}
          />
          {r.status === 'Started' && <CancelPromise r={r} />}
        </Stack>
        <div className={classes.aside}>
          <TripSummary reservation={r} />
        </div>
      </div>
      <PayBar
        notice={load.notice}
        error={pay.submitError}
        dueCents={pendingTotalCents(r)}
        received={pay.received}
        label={submitLabel(r)}
        canSubmit={pay.canSubmit}
        submitting={pay.submitting}
      />
      <DisqualifiedModal opened={pay.disqualified} onClose={pay.closeDisqualified} />
      <Toast message={coupon.toast} onClose={coupon.closeToast} />
    </form>
  );
}
