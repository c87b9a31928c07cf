import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import type { z } from 'zod';
import type { AuditRecord } from '@ampere/domain/contract/ops';
import type { StaffMember } from '@ampere/domain/contract/ops-staff';
import { SIGN_IN_AUDIT_ACTIONS, STAFF_ACTIONS, STAFF_ROLE_LABELS } from '@ampere/domain/staff';
import { api, errorText } from '../../shared/api.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { formatInstant } from '../../shared/dates.ts';
import { useTitle } from '../../shared/use-title.ts';

type Record_ = z.infer<typeof AuditRecord>;
interface Filters {
  action: string;
  outcome: string;
  staffId: string;
  targetType: string;
  targetId: string;
}
const NO_FILTERS: Filters = { action: '', outcome: '', staffId: '', targetType: '', targetId: '' };
const PAGE_SIZE = 50;

const ACTION_WORDS: Record<string, string> = { ...STAFF_ACTIONS, ...SIGN_IN_AUDIT_ACTIONS };
const column = createColumnHelper<Record_>();

const short = (value: unknown) => {
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

/**
 * The audit log (decision 079): every staff action and refused attempt, newest first, filtered by
 * action, outcome, staff member and target, a page at a time.
 */
export function AuditPage() {
  useTitle('Audit log');
  const can = useCan();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // The `before` of each page seen, so "Previous page" goes back the way it came.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const before = cursors.at(-1);
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value.trim());
  if (before !== undefined) params.set('before', String(before));
  const log = useQuery({
    queryKey: ['audit', params.toString()],
    queryFn: () => api<{ records: Record_[]; next: number | null }>(`/audit?${params.toString()}`),
    placeholderData: keepPreviousData,
  });
  const staff = useQuery({
    queryKey: ['staff'],
    queryFn: () => api<{ staff: StaffMember[] }>('/staff'),
    enabled: can('staff.read'),
  });

  const columns = useMemo(
    () => [
      column.accessor('at', {
        header: 'When',
        cell: (c) => formatInstant(c.getValue(), { seconds: true }),
      }),
      column.accessor((r) => r.staffName ?? 'Nobody signed in', {
        id: 'who',
        header: 'Who',
        cell: (c) => (
          <>
            {c.getValue()}
            {c.row.original.staffRole && (
              <Text span size="xs" c="dimmed" display="block">
                {STAFF_ROLE_LABELS[c.row.original.staffRole]}
              </Text>
            )}
          </>
        ),
      }),
      column.accessor((r) => ACTION_WORDS[r.action] ?? r.action, { id: 'action', header: 'Action' }),
      column.accessor((r) => (r.targetType ? `${r.targetType} ${r.targetId ?? ''}` : ''), {
        id: 'target',
        header: 'Target',
        cell: (c) => (
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {c.getValue()}
          </Text>
        ),
      }),
      column.accessor('outcome', {
        header: 'Outcome',
        cell: (c) =>
          c.getValue() === 'success' ? <Badge color="ampere">Done</Badge> : <Badge color="red.9">Refused</Badge>,
      }),
      column.accessor((r) => r.reason ?? [short(r.before), short(r.after)].filter(Boolean).join(' → '), {
        id: 'details',
        header: 'Details',
        enableSorting: false,
        cell: (c) => (
          <Text size="xs" style={{ wordBreak: 'break-word' }} maw={360}>
            {c.getValue()}
          </Text>
        ),
      }),
      column.accessor('sourceAddress', { header: 'From', cell: (c) => c.getValue() ?? '' }),
    ],
    [],
  );

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setCursors([undefined]);
  };
  const set = (key: keyof Filters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const page = cursors.length;

  return (
    <Stack>
      <Title order={1}>Audit log</Title>
      <Paper withBorder p="md" component="section" aria-labelledby="audit-filters">
        <form onSubmit={apply}>
          <Stack>
            <Title order={2} size="h4" id="audit-filters">
              Filters
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }}>
              <NativeSelect
                label="Action"
                value={draft.action}
                onChange={(e) => set('action')(e.currentTarget.value)}
                data={[
                  { value: '', label: 'Any action' },
                  ...Object.entries(ACTION_WORDS).map(([value, label]) => ({ value, label })),
                ]}
              />
              <NativeSelect
                label="Outcome"
                value={draft.outcome}
                onChange={(e) => set('outcome')(e.currentTarget.value)}
                data={[
                  { value: '', label: 'Done or refused' },
                  { value: 'success', label: 'Done' },
                  { value: 'failure', label: 'Refused' },
                ]}
              />
              <NativeSelect
                label="Staff member"
                value={draft.staffId}
                onChange={(e) => set('staffId')(e.currentTarget.value)}
                data={[
                  { value: '', label: 'Anyone' },
                  ...(staff.data?.staff ?? []).map((m) => ({ value: m.id, label: m.name })),
                ]}
              />
              <TextInput
                label="Target type"
                placeholder="staff, car, trip…"
                value={draft.targetType}
                onChange={(e) => set('targetType')(e.currentTarget.value)}
              />
              <TextInput
                label="Target id"
                value={draft.targetId}
                onChange={(e) => set('targetId')(e.currentTarget.value)}
              />
            </SimpleGrid>
            <Group>
              <Button type="submit">Apply filters</Button>
              <Button
                variant="default"
                onClick={() => {
                  setDraft(NO_FILTERS);
                  setFilters(NO_FILTERS);
                  setCursors([undefined]);
                }}
              >
                Clear
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {log.isError ? (
        <Alert color="red" role="alert">
          {errorText(log.error)}
        </Alert>
      ) : (
        <DataGrid
          caption="Audit records, newest first"
          data={log.data?.records ?? []}
          columns={columns}
          getRowId={(r) => String(r.id)}
          minWidth={1000}
          emptyText={log.isPending ? 'Loading the log…' : 'No record matches these filters.'}
          footer={
            <Group justify="space-between" mt="sm">
              <Text size="sm" aria-live="polite">
                Page {page}
              </Text>
              <Group gap="xs">
                <Button
                  variant="default"
                  size="xs"
                  disabled={page === 1}
                  onClick={() => setCursors((c) => c.slice(0, -1))}
                >
                  Newer records
                </Button>
                <Button
                  variant="default"
                  size="xs"
                  disabled={!log.data?.next}
                  onClick={() => setCursors((c) => [...c, log.data!.next!])}
                >
                  Older records
                </Button>
              </Group>
            </Group>
          }
        />
      )}
    </Stack>
  );
}
