import { Title } from '@mantine/core';
import classes from './booking.module.css';
import { CouponField } from './coupon-field.tsx';

/** Review & Pay's coupon section (spec 2). */
export function CouponPanel({ onApply }: { onApply(code: string): Promise<boolean> }) {
  return (
    <section className={classes.panel} aria-labelledby="coupon-title">
      <Title order={2} size="h4" id="coupon-title" mb="xs">
        Coupon
      </Title>
      <CouponField onApply={onApply} />
    </section>
  );
}
