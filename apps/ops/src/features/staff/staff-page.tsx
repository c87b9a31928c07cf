import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import type { StaffMember } from '@ampere/domain/contract/ops-staff';
import { STAFF_ROLES, STAFF_ROLE_LABELS, type StaffRole } from '@ampere/domain/staff';
import { formatPhone } from '@ampere/domain/phone';
import { ApiError, api, errorText } from '../../shared/api.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { type LocationOption, locationsQuery } from '../../shared/locations.ts';
import { useCan, useMe } from '../../shared/me.ts';
import { formatInstant } from '../../shared/dates.ts';
import { useTitle } from '../../shared/use-title.ts';

const staffQuery = { queryKey: ['staff'], queryFn: () => api<{ staff: StaffMember[] }>('/staff') };
const column = createColumnHelper<StaffMember>();
const when = (iso: string | null) => (iso ? formatInstant(iso) : 'Never');

function locationsText(ids: StaffMember['locationIds'], byId: Map<string, LocationOption>): string {
  if (ids === 'all') return 'All locations';
  if (ids.length === 0) return 'None';
  return ids.map((id) => byId.get(id)?.name ?? `Location ${id}`).join(', ');
}

/** The staff list; an owner invites, changes roles and deactivates (decision 081). */
export function StaffPage() {
  useTitle('Staff');
  const can = useCan();
  const me = useMe();
  const queryClient = useQueryClient();
  const staff = useQuery(staffQuery);
  const locations = useQuery(locationsQuery);
  const [filter, setFilter] = useState('');
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const byId = useMemo(() => new Map((locations.data ?? []).map((l) => [String(l.id), l] as const)), [locations.data]);

  const change = useMutation({
    mutationFn: (input: {
      id: string;
      role?: StaffRole;
      locationIds?: StaffMember['locationIds'];
      deactivate?: boolean;
      resetPasskey?: boolean;
    }) =>
      input.deactivate || input.resetPasskey
        ? api<StaffMember>(`/staff/${input.id}/${input.deactivate ? 'deactivate' : 'reset-passkey'}`, {
            method: 'POST',
          })
        : api<StaffMember>(`/staff/${input.id}`, {
            method: 'PATCH',
            body: { role: input.role, locationIds: input.locationIds },
          }),
    onSuccess: (member, input) => {
      setNotice({
        ok: true,
        text: input.deactivate
          ? `${member.name} is deactivated and signed out everywhere.`
          : input.resetPasskey
            ? `${member.name}’s passkey is removed and they are signed out: they create a new one at their next sign-in.`
            : input.locationIds !== undefined
              ? `${member.name} now works at: ${locationsText(member.locationIds, byId)}.`
              : `${member.name} is now ${STAFF_ROLE_LABELS[member.role]}.`,
      });
      void queryClient.invalidateQueries({ queryKey: staffQuery.queryKey });
    },
    onError: (err) => setNotice({ ok: false, text: errorText(err) }),
  });

  const columns = useMemo(
    () => [
      column.accessor('name', { header: 'Name' }),
      column.accessor('phone', { header: 'Phone', cell: (c) => formatPhone(c.getValue()) }),
      column.accessor('role', {
        header: 'Role',
        cell: (c) => {
          const member = c.row.original;
          if (!can('staff.edit') || !member.active) return STAFF_ROLE_LABELS[member.role];
          return (
            <NativeSelect
              aria-label={`Role of ${member.name}`}
              size="xs"
              miw={120}
              value={member.role}
              data={STAFF_ROLES.map((r) => ({ value: r, label: STAFF_ROLE_LABELS[r] }))}
              onChange={(e) => change.mutate({ id: member.id, role: e.currentTarget.value as StaffRole })}
            />
          );
        },
      }),
      column.accessor((m) => locationsText(m.locationIds, byId), {
        id: 'locations',
        header: 'Locations',
        cell: (c) => {
          const member = c.row.original;
          if (!can('staff.edit') || !member.active || member.role === 'owner') return c.getValue();
          return (
            <Group gap="xs" wrap="nowrap">
              <span>{c.getValue()}</span>
              <Button
                size="compact-xs"
                variant="default"
                aria-label={`Change where ${member.name} works`}
                onClick={() => setEditing(member)}
              >
                Change
              </Button>
            </Group>
          );
        },
      }),
      column.accessor('hasPasskey', {
        header: 'Passkey',
        cell: (c) => {
          const member = c.row.original;
          if (!c.getValue()) return 'Not yet';
          if (!can('staff.edit') || !member.active) return 'Registered';
          return (
            <Group gap="xs" wrap="nowrap">
              <span>Registered</span>
              <Button
                size="compact-xs"
                variant="default"
                aria-label={`Reset ${member.name}’s passkey`}
                onClick={() => {
                  if (
                    window.confirm(
                      `Reset ${member.name}’s passkey? They are signed out, and create a new passkey at their next sign-in.`,
                    )
                  )
                    change.mutate({ id: member.id, resetPasskey: true });
                }}
              >
                Reset
              </Button>
            </Group>
          );
        },
      }),
      column.accessor('lastSignInAt', { header: 'Last sign-in', cell: (c) => when(c.getValue()) }),
      column.accessor('active', {
        header: 'Status',
        cell: (c) => (c.getValue() ? <Badge color="ampere">Active</Badge> : <Badge color="dark">Deactivated</Badge>),
      }),
      ...(can('staff.deactivate')
        ? [
            column.display({
              id: 'actions',
              header: () => <VisuallyHidden>Actions</VisuallyHidden>,
              cell: (c) => {
                const member = c.row.original;
                if (!member.active) return null;
                return (
                  <Button
                    size="xs"
                    variant="outline"
                    color="red.9"
                    aria-label={`Deactivate ${member.name}`}
                    onClick={() => {
                      const self = member.id === me.id ? ' You will be signed out.' : '';
                      if (window.confirm(`Deactivate ${member.name}? They are signed out at once.${self}`))
                        change.mutate({ id: member.id, deactivate: true });
                    }}
                  >
                    Deactivate
                  </Button>
                );
              },
            }),
          ]
        : []),
    ],
    [byId, can, change, me.id],
  );

  return (
    <Stack>
      <Title order={1}>Staff</Title>
      {notice && (
        <Alert
          color={notice.ok ? 'green' : 'red'}
          role={notice.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setNotice(null)}
          closeButtonLabel="Dismiss"
        >
          {notice.text}
        </Alert>
      )}
      {can('staff.invite') && (
        <InviteForm
          locations={locations.data ?? []}
          onInvited={(text) => {
            setNotice({ ok: true, text });
            void queryClient.invalidateQueries({ queryKey: staffQuery.queryKey });
          }}
        />
      )}
      {editing && (
        <LocationsDialog
          member={editing}
          locations={locations.data ?? []}
          onClose={() => setEditing(null)}
          onSave={(locationIds) => {
            change.mutate({ id: editing.id, locationIds });
            setEditing(null);
          }}
        />
      )}
      <TextInput
        label="Find staff"
        placeholder="Name, phone, role or location"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        maw={360}
      />
      {staff.isError ? (
        <Alert color="red" role="alert">
          {errorText(staff.error)}
        </Alert>
      ) : (
        <DataGrid
          caption="Staff members"
          data={staff.data?.staff ?? []}
          columns={columns}
          getRowId={(m) => m.id}
          filter={filter}
          pageSize={25}
          minWidth={980}
          emptyText={staff.isPending ? 'Loading the staff…' : 'No staff member matches.'}
        />
      )}
    </Stack>
  );
}

function InviteForm({ locations, onInvited }: { locations: LocationOption[]; onInvited: (text: string) => void }) {
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [role, setRole] = useState<StaffRole>('agent');
  const [everywhere, setEverywhere] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<{ text: string; field: string | null } | null>(null);
  const invite = useMutation({
    mutationFn: () =>
      api<{ staff: StaffMember; invitationSent: boolean }>('/staff', {
        method: 'POST',
        body: { name, phone, role, locationIds: everywhere || role === 'owner' ? 'all' : chosen },
      }),
    onSuccess: ({ staff, invitationSent }) => {
      setName('');
      setPhone('');
      setChosen([]);
      setError(null);
      onInvited(
        invitationSent
          ? `${staff.name} is invited as ${STAFF_ROLE_LABELS[staff.role]}: a text with the console’s address is on its way to ${formatPhone(staff.phone)}.`
          : `${staff.name} is on the staff, but the invitation text could not be sent: tell them to open the console and sign in with ${formatPhone(staff.phone)}.`,
      );
    },
    onError: (err) => setError({ text: errorText(err), field: err instanceof ApiError ? err.field : null }),
  });
  const fieldError = (field: string) => (error?.field === field ? error.text : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!everywhere && role !== 'owner' && chosen.length === 0) {
      setError({ text: 'Choose at least one location, or tick “All locations”.', field: 'locationIds' });
      return;
    }
    invite.mutate();
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invite-heading">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3" id="invite-heading">
            Invite staff
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError('name')}
              required
            />
            <TextInput
              label="Phone number"
              type="tel"
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              error={fieldError('phone')}
              required
            />
            <NativeSelect
              label="Role"
              value={role}
              onChange={(e) => setRole(e.currentTarget.value as StaffRole)}
              data={STAFF_ROLES.map((r) => ({ value: r, label: STAFF_ROLE_LABELS[r] }))}
              error={fieldError('role')}
            />
          </SimpleGrid>
          {role !== 'owner' && (
            <Group align="flex-end">
              <Checkbox
                label="All locations"
                checked={everywhere}
                onChange={(e) => setEverywhere(e.currentTarget.checked)}
              />
              {!everywhere && (
                <MultiSelect
                  label="Locations"
                  placeholder="Choose locations"
                  data={locations.map((l) => ({ value: String(l.id), label: `${l.name} (${l.city}, ${l.state})` }))}
                  value={chosen}
                  onChange={setChosen}
                  searchable
                  error={fieldError('locationIds')}
                  miw={260}
                />
              )}
            </Group>
          )}
          {error && !['name', 'phone', 'role', 'locationIds'].includes(error.field ?? '') && (
            <Alert color="red" role="alert">
              {error.text}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={invite.isPending}>
              Send the invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Where a staff member works: every location, or those chosen. */
function LocationsDialog({
  member,
  locations,
  onClose,
  onSave,
}: {
  member: StaffMember;
  locations: LocationOption[];
  onClose: () => void;
  onSave: (locationIds: StaffMember['locationIds']) => void;
}) {
  const [everywhere, setEverywhere] = useState(member.locationIds === 'all');
  const [chosen, setChosen] = useState<string[]>(member.locationIds === 'all' ? [] : member.locationIds);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal opened onClose={onClose} title={`Where ${member.name} works`}>
      <Stack>
        <Checkbox label="All locations" checked={everywhere} onChange={(e) => setEverywhere(e.currentTarget.checked)} />
        {!everywhere && (
          <MultiSelect
            label="Locations"
            placeholder="Choose locations"
            data={locations.map((l) => ({ value: String(l.id), label: `${l.name} (${l.city}, ${l.state})` }))}
            value={chosen}
            onChange={setChosen}
            searchable
            error={error}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              if (!everywhere && chosen.length === 0) {
                setError('Choose at least one location, or tick “All locations”.');
                return;
              }
              onSave(everywhere ? 'all' : chosen);
            }}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
