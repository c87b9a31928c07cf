import { Alert, Button, Group, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { REFUND_REASON_MIN } from '@ampere/domain/charges';
import type { TripPayment } from '@ampere/domain/contract/ops-money';
import { formatTotal } from '@ampere/domain/money';
import { ApiError, errorText } from '../../shared/api.ts';
import { centsOf } from './fee-words.ts';
import { refundPayment } from './money-api.ts';

/** The role's refund limit in words, as the form shows it. */
export function limitWords(limitCents: number | null): string {
  return limitCents === null
    ? 'Your role has no refund limit.'
    : `Your role may refund up to ${formatTotal(limitCents)} at a time.`;
}

/**
 * Refunding a payment, all or part of it (issue 30 §3): up to what is left to refund, within the
 * role's limit (shown, and checked here before the server checks it again), with a written reason.
 */
export function RefundForm({
  payment,
  limitCents,
  onDone,
  onCancel,
}: {
  payment: TripPayment;
  limitCents: number | null;
  onDone: (cents: number) => void;
  onCancel: () => void;
}) {
  const most = payment.refundableCents;
  const [dollars, setDollars] = useState<number | string>(
    (limitCents === null ? most : Math.min(most, limitCents)) / 100,
  );
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ cents?: string; reason?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const cents = centsOf(dollars);
    const found: typeof errors = {};
    if (cents === undefined || cents < 1) found.cents = 'Type the amount to refund, more than $0.00.';
    else if (cents > most) found.cents = `At most ${formatTotal(most)} is left to refund on this payment.`;
    else if (limitCents !== null && cents > limitCents)
      found.cents = `Over your limit: your role may refund up to ${formatTotal(limitCents)} at a time. Ask the owner to refund more.`;
    if (reason.trim().length < REFUND_REASON_MIN)
      found.reason = `Write why it is refunded: at least ${REFUND_REASON_MIN} characters.`;
    setErrors(found);
    if (found.cents || found.reason || cents === undefined) return;
    setSending(true);
    try {
      // The whole of what is left goes without an amount: the server refunds exactly that.
      await refundPayment(payment.paymentId, { ...(cents === most ? {} : { cents }), reason: reason.trim() });
      onDone(cents);
    } catch (err) {
      const field = err instanceof ApiError ? err.field : null;
      if (field === 'reason') setErrors({ reason: errorText(err) });
      else if (field === 'cents' || (err instanceof ApiError && err.status === 403))
        setErrors({ cents: errorText(err) });
      else setFormError(errorText(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Refund">
      <Stack gap="sm">
        <Text size="sm">
          {payment.label}: {formatTotal(payment.capturedCents)} taken
          {payment.refundedCents > 0 ? `, ${formatTotal(payment.refundedCents)} refunded already` : ''}.{' '}
          <strong>{formatTotal(most)}</strong> can be refunded
          {payment.cardLast4 ? ` to the ${payment.cardBrand ?? 'card'} ending ${payment.cardLast4}` : ''}.
        </Text>
        <Text size="sm" data-testid="refund-limit">
          {limitWords(limitCents)}
        </Text>
        <NumberInput
          label="Amount to refund"
          prefix="$"
          decimalScale={2}
          fixedDecimalScale
          thousandSeparator=","
          allowNegative={false}
          value={dollars}
          onChange={(v) => {
            setDollars(v);
            setErrors((e) => ({ ...e, cents: undefined }));
          }}
          error={errors.cents}
          required
        />
        <Textarea
          label="Reason"
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setErrors((x) => ({ ...x, reason: undefined }));
          }}
          autosize
          minRows={2}
          maxLength={1_000}
          error={errors.reason}
          required
        />
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={sending}>
            Refund
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
