import { Alert, Button, Group, NativeSelect, NumberInput, Paper, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { FEE_CATALOGUE, type FeeTypeId, POSTABLE_FEE_TYPE_IDS, priceCharge } from '@ampere/domain/fees';
import { formatTotal } from '@ampere/domain/money';
import { ApiError, errorText } from '../../shared/api.ts';
import { EvidencePicker, type PickedFile, type Reading, pickedKinds } from './evidence-picker.tsx';
import { centsOf, evidenceWords, priceWords, quantityLabel, typesAmount } from './fee-words.ts';
import type { NewChargeBody } from './money-api.ts';

type Field = 'type' | 'quantity' | 'cents' | 'evidence' | 'reason';
/** The server's field names for what this form calls a field (its evidence is three lists). */
const FIELD_OF: Record<string, Field> = {
  type: 'type',
  quantity: 'quantity',
  cents: 'cents',
  reason: 'reason',
  evidence: 'evidence',
  evidenceIds: 'evidence',
  readings: 'evidence',
  inspectionPhotoIds: 'evidence',
};
const REASON_MIN = 3;

/**
 * Posting a charge after a trip (issue 30 §2): the fee from the catalogue with its published price
 * and evidence rule, a quantity or an amount only where the catalogue lets one be typed, the
 * evidence, and a reason. The price is the domain's `priceCharge`, worked out as staff type; what
 * the server refuses is shown at the field it names. Used for a deposit's capture too.
 */
export function ChargeForm({
  tripId,
  submitLabel,
  send,
  onDone,
  onCancel,
  initialType = 'cleaning',
  types = POSTABLE_FEE_TYPE_IDS,
}: {
  tripId: string;
  submitLabel: string;
  send: (body: NewChargeBody) => Promise<unknown>;
  onDone: (amountCents: number, label: string) => void;
  onCancel: () => void;
  initialType?: FeeTypeId;
  types?: readonly FeeTypeId[];
}) {
  const [type, setType] = useState<FeeTypeId>(initialType);
  const [quantity, setQuantity] = useState<number | string>('');
  const [dollars, setDollars] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [readings, setReadings] = useState<Reading[]>([]);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const fee = FEE_CATALOGUE[type];
  const qtyLabel = quantityLabel(fee);
  const amountTyped = typesAmount(fee);
  const typedQuantity = typeof quantity === 'number' ? quantity : quantity === '' ? undefined : Number(quantity);
  const typedCents = centsOf(dollars);
  const evidence = pickedKinds(files, readings);
  const pricing = useMemo(
    () =>
      priceCharge({
        type,
        quantity: qtyLabel ? typedQuantity : undefined,
        cents: amountTyped ? typedCents : undefined,
        evidence,
      }),
    // The evidence kinds are a fresh array each render; their count and kinds are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [type, qtyLabel, typedQuantity, amountTyped, typedCents, evidence.map((e) => e.kind).join()],
  );
  const uploading = files.some((f) => f.state === 'uploading');
  const administration = fee.administration ? FEE_CATALOGUE[fee.administration] : null;

  const clear = (field: Field) => setErrors((e) => ({ ...e, [field]: undefined }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found: Partial<Record<Field, string>> = {};
    if (reason.trim().length < REASON_MIN) found.reason = 'Write why the renter is charged: at least 3 characters.';
    if (!pricing.ok) found[pricing.field] = pricing.message;
    if (uploading) found.evidence = 'Wait for the files to finish uploading.';
    setErrors(found);
    if (Object.values(found).some(Boolean) || !pricing.ok) return;
    setSending(true);
    try {
      await send({
        type,
        ...(qtyLabel && typedQuantity !== undefined ? { quantity: typedQuantity } : {}),
        ...(amountTyped && typedCents !== undefined ? { cents: typedCents } : {}),
        reason: reason.trim(),
        evidenceIds: files.flatMap((f) => (f.state === 'ready' && f.evidence ? [f.evidence.id] : [])),
        readings: readings
          .filter((r) => r.label.trim() && r.value.trim())
          .map((r) => ({ label: r.label.trim(), value: r.value.trim() })),
      });
      onDone(pricing.amount, fee.label);
    } catch (err) {
      const field = err instanceof ApiError && err.field ? FIELD_OF[err.field] : undefined;
      if (field) setErrors({ [field]: errorText(err) });
      else setFormError(errorText(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Post a charge">
      <Stack gap="sm">
        <NativeSelect
          label="Fee"
          value={type}
          error={errors.type}
          onChange={(e) => {
            setType(e.currentTarget.value as FeeTypeId);
            setQuantity('');
            setDollars('');
            setErrors({});
          }}
          data={types.map((id) => ({ value: id, label: FEE_CATALOGUE[id].label }))}
        />
        <Paper withBorder p="xs" bg="gray.0" aria-label="The catalogue says" component="section">
          <Text size="sm">{fee.when}</Text>
          <Text size="sm" fw={600} mt={4} data-testid="fee-price">
            Price: {priceWords(fee)}
          </Text>
          <Text size="sm" data-testid="fee-evidence-rule">
            Evidence: {evidenceWords(fee.evidence)}
          </Text>
          {administration && (
            <Text size="sm" c="dimmed">
              Posted with its {administration.label} ({priceWords(administration)}).
            </Text>
          )}
        </Paper>
        {qtyLabel && (
          <NumberInput
            label={qtyLabel}
            value={quantity}
            onChange={(v) => {
              setQuantity(v);
              clear('quantity');
            }}
            min={1}
            max={100_000}
            allowDecimal={false}
            allowNegative={false}
            error={errors.quantity}
            required
          />
        )}
        {amountTyped && (
          <NumberInput
            label={fee.price.kind === 'atCost' ? 'Amount billed' : 'Amount assessed'}
            prefix="$"
            decimalScale={2}
            fixedDecimalScale
            thousandSeparator=","
            allowNegative={false}
            value={dollars}
            onChange={(v) => {
              setDollars(v);
              clear('cents');
            }}
            error={errors.cents}
            required
          />
        )}
        <Textarea
          label="Reason (the renter reads it)"
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            clear('reason');
          }}
          autosize
          minRows={2}
          maxLength={1_000}
          error={errors.reason}
          required
        />
        <EvidencePicker
          tripId={tripId}
          accepts={fee.evidence}
          files={files}
          onFiles={(update) => {
            setFiles(update);
            clear('evidence');
          }}
          readings={readings}
          onReadings={(r) => {
            setReadings(r);
            clear('evidence');
          }}
          error={errors.evidence ?? null}
        />
        <Text size="sm" role="status" aria-live="polite" fw={pricing.ok ? 700 : 400} data-testid="charge-price">
          {pricing.ok
            ? `The renter is charged ${formatTotal(pricing.amount)}${
                pricing.quantity > 1 ? ` (${pricing.quantity} × ${formatTotal(pricing.unitCents)})` : ''
              }.`
            : `Not ready to post: ${pricing.message}`}
        </Text>
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={sending} disabled={uploading}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
