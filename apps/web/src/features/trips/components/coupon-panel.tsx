import { Text, Title } from '@mantine/core';
import { formatTotal } from '@ampere/domain/money';
import classes from './booking.module.css';
import { CouponField } from './coupon-field.tsx';

/** A coupon on the trip: its code and what it takes off the amount due. */
export interface AppliedCoupon {
  code: string;
  cents: number;
}

/** Review & Pay's coupon section (spec 2): the field, and by it the coupon applied ('WELCOME10 applied — −$8.20'). */
export function CouponPanel({
  onApply,
  applied,
}: {
  onApply(code: string): Promise<boolean>;
  applied: AppliedCoupon | null;
}) {
  return (
    <section className={classes.panel} aria-labelledby="coupon-title">
      <Title order={2} size="h4" id="coupon-title" mb="xs">
        Coupon
      </Title>
      <CouponField onApply={onApply} />
      {applied && (
        <Text role="status" size="sm" fw={700} c="#0b6a3f" mt="xs">
          {applied.code} applied — −{formatTotal(applied.cents)}
        </Text>
      )}
    </section>
  );
}
