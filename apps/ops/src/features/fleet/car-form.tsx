import { Alert, Button, Checkbox, Group, NativeSelect, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { MAX_DAILY_RATE_CENTS, MIN_MODEL_YEAR } from '@ampere/domain/fleet';
import { formatTotal } from '@ampere/domain/money';
import { ApiError, errorText } from '../../shared/api.ts';
import { type CarValues, catalogQuery, fleetLocationsQuery } from './fleet-api.ts';

/** The form's fields, as typed (numbers stay text until sent, so a half-typed value is not lost). */
export interface CarDraft {
  vin: string;
  year: string;
  model: string;
  colour: string;
  locationId: string;
  dailyRateCents: string;
  odometer: string;
  /** Empty when the car has no plate. */
  plate: string;
  selfServe: boolean;
}

export const EMPTY_CAR: CarDraft = {
  vin: '',
  year: '',
  model: '',
  colour: '',
  locationId: '',
  dailyRateCents: '',
  odometer: '0',
  plate: '',
  selfServe: true,
};

const FIELDS = ['vin', 'year', 'model', 'colour', 'locationId', 'dailyRateCents', 'odometer'] as const;
/** The fields a refusal can name and be shown under: the required ones and the plate. */
const SHOWN_UNDER: readonly string[] = [...FIELDS, 'licensePlate'];

/** What the form sends: numbers as numbers. The server checks every value with the CSV's rule. */
export function carValues(draft: CarDraft): CarValues {
  return {
    year: Number(draft.year),
    model: draft.model,
    colour: draft.colour,
    locationId: Number(draft.locationId),
    dailyRateCents: Number(draft.dailyRateCents),
    odometer: Number(draft.odometer || '0'),
    selfServe: draft.selfServe,
    licensePlate: draft.plate.trim() === '' ? null : draft.plate.trim(),
  };
}

/**
 * A car's values (decision 084's one rule): the add form shows the VIN, the edit form does not
 * (the VIN names the car). A refusal is shown beside the field the API names, else above the buttons.
 */
export function CarForm({
  initial,
  withVin,
  submitLabel,
  pending,
  error,
  onSubmit,
  extraButtons,
}: {
  initial: CarDraft;
  withVin: boolean;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (draft: CarDraft) => void;
  extraButtons?: ReactNode;
}) {
  const [draft, setDraft] = useState<CarDraft>(initial);
  const [missing, setMissing] = useState<string | null>(null);
  const catalog = useQuery(catalogQuery);
  const locations = useQuery(fleetLocationsQuery);
  const field = error instanceof ApiError ? error.field : null;
  const fieldError = (name: string) => {
    if (missing === name) return 'Fill this in.';
    return error && field === name ? errorText(error) : undefined;
  };
  const set = (key: keyof CarDraft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = FIELDS.find((f) => (f !== 'vin' || withVin) && draft[f].trim() === '');
    setMissing(empty ?? null);
    if (!empty) onSubmit(draft);
  };
  const rate = Number(draft.dailyRateCents);

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {withVin && (
            <TextInput
              label="VIN"
              description="17 characters; the 9th is its check digit"
              value={draft.vin}
              maxLength={17}
              onChange={(e) => set('vin')(e.currentTarget.value.toUpperCase())}
              error={fieldError('vin')}
              required
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
          )}
          <NumberInput
            label="Model year"
            value={draft.year}
            min={MIN_MODEL_YEAR}
            allowDecimal={false}
            onChange={(v) => set('year')(String(v))}
            error={fieldError('year')}
            required
          />
          <NativeSelect
            label="Model"
            value={draft.model}
            onChange={(e) => set('model')(e.currentTarget.value)}
            data={[
              { value: '', label: 'Choose a model', disabled: true },
              ...(catalog.data?.models ?? []).map((m) => ({ value: m.name, label: m.name })),
            ]}
            error={fieldError('model')}
            required
          />
          <NativeSelect
            label="Colour"
            value={draft.colour}
            onChange={(e) => set('colour')(e.currentTarget.value)}
            data={[
              { value: '', label: 'Choose a colour', disabled: true },
              ...(catalog.data?.colours ?? []).map((c) => ({
                value: c,
                label: c.charAt(0) + c.slice(1).toLowerCase(),
              })),
            ]}
            error={fieldError('colour')}
            required
          />
          <NativeSelect
            label="Location"
            value={draft.locationId}
            onChange={(e) => set('locationId')(e.currentTarget.value)}
            data={[
              { value: '', label: 'Choose a location', disabled: true },
              ...(locations.data?.locations ?? []).map((l) => ({ value: l.id, label: l.name })),
            ]}
            error={fieldError('locationId')}
            required
          />
          <NumberInput
            label="Daily rate, in cents"
            description={
              Number.isSafeInteger(rate) && rate > 0 && rate <= MAX_DAILY_RATE_CENTS
                ? `${formatTotal(rate)} a day`
                : 'e.g. 8900 for $89.00'
            }
            value={draft.dailyRateCents}
            min={1}
            max={MAX_DAILY_RATE_CENTS}
            allowDecimal={false}
            thousandSeparator=","
            onChange={(v) => set('dailyRateCents')(String(v))}
            error={fieldError('dailyRateCents')}
            required
          />
          <NumberInput
            label="Odometer, in miles"
            value={draft.odometer}
            min={0}
            allowDecimal={false}
            thousandSeparator=","
            onChange={(v) => set('odometer')(String(v))}
            error={fieldError('odometer')}
          />
          <TextInput
            label="License plate"
            description="Optional; tolls and tickets are matched by it"
            value={draft.plate}
            maxLength={20}
            onChange={(e) => set('plate')(e.currentTarget.value.toUpperCase())}
            error={fieldError('licensePlate')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        </SimpleGrid>
        <Checkbox
          label="Renters may book it themselves (self-serve)"
          checked={draft.selfServe}
          onChange={(e) => setDraft((d) => ({ ...d, selfServe: e.currentTarget.checked }))}
        />
        {error !== null && error !== undefined && !SHOWN_UNDER.includes(field ?? '') ? (
          <Alert color="red" role="alert">
            {errorText(error)}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
          {extraButtons}
        </Group>
      </Stack>
    </form>
  );
}
