import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { DEFAULT_MIN_RESERVATION_BUFFER_HOURS } from '@ampere/domain/constants';
import { LocationEdit } from '@ampere/domain/contract/ops-fleet';
import { ApiError, api, errorText } from '../../shared/api.ts';
import { paths } from '../../shared/paths.ts';
import { type StaffLocation, staffLocationsQuery } from '../../shared/staff-locations.ts';
import { useCan } from '../../shared/me.ts';
import { useTitle } from '../../shared/use-title.ts';
import { InstructionsEditor } from './instructions-editor.tsx';
import { InstructionsPreview } from './instructions-preview.tsx';

type Field =
  | 'street'
  | 'city'
  | 'state'
  | 'zipCode'
  | 'timezone'
  | 'minReservationBufferHours'
  | 'pickupInstructionsHtml'
  | 'returnInstructionsHtml';
type Draft = Pick<StaffLocation, Field>;
type Errors = Partial<Record<Field | 'form', string>>;

const FIELDS: Field[] = [
  'street',
  'city',
  'state',
  'zipCode',
  'timezone',
  'minReservationBufferHours',
  'pickupInstructionsHtml',
  'returnInstructionsHtml',
];

/** Every IANA zone this browser knows, the location's own kept even if it does not. */
function zoneOptions(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(current) ? zones : [current, ...zones];
}

/** The API names the field first ('zipCode Use a five-digit ZIP code.'); beside the field it need not. */
const besideField = (message: string, field: string) =>
  message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;

/**
 * A location's edit form (issue 29 §3, decision 088): address, IANA time zone, booking notice and
 * the pickup and return instructions in a rich-text editor, with a preview as renters see them.
 * Lazy: the editor's code loads with this page only.
 */
export function LocationEditPage() {
  const { locationId = '' } = useParams();
  const locations = useQuery(staffLocationsQuery);
  const location = locations.data?.find((l) => l.id === locationId);
  useTitle(location ? `Edit ${location.name}` : 'Location');

  return (
    <Stack>
      <Anchor component={Link} to={paths.locations} size="sm">
        ← Locations
      </Anchor>
      {locations.isError ? (
        <>
          <Title order={1}>Location</Title>
          <Alert color="red" role="alert">
            {errorText(locations.error)}
          </Alert>
        </>
      ) : locations.isPending ? (
        <Loader role="status" aria-label="Loading the location" />
      ) : !location ? (
        <>
          <Title order={1}>Location not found</Title>
          <Alert color="gray">We could not find that location among yours.</Alert>
        </>
      ) : (
        // A new form when the location changes (another one opened, or saved and read again).
        <LocationForm key={`${location.id}`} location={location} />
      )}
    </Stack>
  );
}

function LocationForm({ location }: { location: StaffLocation }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => pick(location));
  const [saved, setSaved] = useState<Draft>(() => pick(location));
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const zones = useMemo(() => zoneOptions(location.timezone), [location.timezone]);
  const readOnly = !can('locations.edit');
  const form = useRef<HTMLFormElement>(null);
  // A refused save takes the keyboard to the first field that says what is wrong.
  const [failedAt, setFailedAt] = useState(0);
  useEffect(() => {
    if (failedAt) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failedAt]);

  const set = <K extends Field>(field: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
    setNotice(null);
  };
  const changes = Object.fromEntries(FIELDS.filter((f) => draft[f] !== saved[f]).map((f) => [f, draft[f]]));

  const save = useMutation({
    mutationFn: (body: Partial<Draft>) =>
      api<StaffLocation>(`/locations/${encodeURIComponent(location.id)}`, { method: 'PATCH', body }),
    onSuccess: (after) => {
      // The editors stay as they are: what they hold is what was saved (they write only what the API keeps).
      const kept = (d: Draft): Draft => ({
        ...pick(after),
        pickupInstructionsHtml: d.pickupInstructionsHtml,
        returnInstructionsHtml: d.returnInstructionsHtml,
      });
      setSaved(kept(draft));
      setDraft(kept);
      setNotice(`Saved. Renters see ${after.name}’s instructions as the preview shows them.`);
      queryClient.setQueryData(staffLocationsQuery.queryKey, (list) =>
        list?.map((l) => (l.id === after.id ? after : l)),
      );
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field && (FIELDS as string[]).includes(err.field))
        setErrors({ [err.field]: besideField(err.message, err.field) });
      else setErrors({ form: errorText(err) });
      setFailedAt(Date.now());
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    if (Object.keys(changes).length === 0) {
      setNotice('Nothing has changed.');
      return;
    }
    // The same schema as the API's check: what is wrong shows beside its field before anything is sent.
    const checked = LocationEdit.safeParse(changes);
    if (!checked.success) {
      const found: Errors = {};
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? 'form') as Field | 'form';
        found[field] ??= issue.message;
      }
      setErrors(found);
      setFailedAt(Date.now());
      return;
    }
    save.mutate(checked.data);
  };

  return (
    <form onSubmit={submit} noValidate ref={form}>
      <Stack>
        <div>
          <Title order={1}>{location.name}</Title>
          <Text c="dimmed" size="sm">
            {location.city}, {location.state} · location {location.id}
          </Text>
        </div>
        <Paper withBorder p="md" component="section" aria-labelledby="address-heading">
          <Stack gap="sm">
            <Title order={2} size="h4" id="address-heading">
              Address and clock
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Street"
                value={draft.street}
                onChange={(e) => set('street', e.currentTarget.value)}
                error={errors.street}
                readOnly={readOnly}
                required
              />
              <TextInput
                label="City"
                value={draft.city}
                onChange={(e) => set('city', e.currentTarget.value)}
                error={errors.city}
                readOnly={readOnly}
                required
              />
              <TextInput
                label="State"
                description="Two letters, e.g. TN"
                value={draft.state}
                onChange={(e) => set('state', e.currentTarget.value.toUpperCase())}
                error={errors.state}
                maxLength={2}
                readOnly={readOnly}
                required
              />
              <TextInput
                label="ZIP code"
                description="Five digits, e.g. 37203"
                value={draft.zipCode}
                onChange={(e) => set('zipCode', e.currentTarget.value)}
                error={errors.zipCode}
                inputMode="numeric"
                readOnly={readOnly}
                required
              />
              <Select
                label="Time zone"
                description="The lot’s clock: pickups, returns and the Today board read it"
                data={zones}
                value={draft.timezone}
                onChange={(zone) => zone && set('timezone', zone)}
                searchable
                // Opened by a click or typing, not by the keyboard arriving at a refused value.
                openOnFocus={false}
                allowDeselect={false}
                limit={50}
                nothingFoundMessage="No time zone by that name"
                error={errors.timezone}
                readOnly={readOnly}
              />
              <NumberInput
                label="Booking notice (hours)"
                description={`How long before pickup a car can be booked; empty for the default (${DEFAULT_MIN_RESERVATION_BUFFER_HOURS} h)`}
                value={draft.minReservationBufferHours ?? ''}
                onChange={(v) => set('minReservationBufferHours', v === '' ? null : Number(v))}
                allowDecimal={false}
                allowNegative={false}
                min={0}
                max={168}
                error={errors.minReservationBufferHours}
                readOnly={readOnly}
              />
            </SimpleGrid>
          </Stack>
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="instructions-heading">
          <Stack gap="sm">
            <Title order={2} size="h4" id="instructions-heading">
              Instructions
            </Title>
            <InstructionsEditor
              label="Pickup instructions"
              description="Where to find the car and how to start the trip"
              initialHtml={location.pickupInstructionsHtml}
              error={errors.pickupInstructionsHtml}
              onChange={(html) => set('pickupInstructionsHtml', html)}
              readOnly={readOnly}
            />
            <InstructionsEditor
              label="Return instructions"
              description="Where to leave the car, charging and the keys"
              initialHtml={location.returnInstructionsHtml}
              error={errors.returnInstructionsHtml}
              onChange={(html) => set('returnInstructionsHtml', html)}
              readOnly={readOnly}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="preview-heading">
          <Title order={2} size="h4" id="preview-heading" mb="sm">
            Preview as renters see it
          </Title>
          <InstructionsPreview pickupHtml={draft.pickupInstructionsHtml} returnHtml={draft.returnInstructionsHtml} />
        </Paper>
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Text role="status" size="sm" fw={500} mih={20}>
          {notice ?? ''}
        </Text>
        {!readOnly && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save changes
            </Button>
            <Button variant="default" component={Link} to={paths.locations}>
              Cancel
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

function pick(l: StaffLocation): Draft {
  return {
    street: l.street,
    city: l.city,
    state: l.state,
    zipCode: l.zipCode,
    timezone: l.timezone,
    minReservationBufferHours: l.minReservationBufferHours,
    pickupInstructionsHtml: l.pickupInstructionsHtml,
    returnInstructionsHtml: l.returnInstructionsHtml,
  };
}
