import { Alert, Anchor, Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { TOLL_CSV_COLUMNS, TOLL_CSV_MAX_ROWS } from '@ampere/domain/charges';
import type { TollMatched, TollUnmatched } from '@ampere/domain/contract/ops-money';
import { formatTotal } from '@ampere/domain/money';
import { ApiError, errorText } from '../../shared/api.ts';
import { CsvFileButton } from '../../shared/csv-file-button.tsx';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { type TollAnswer, importTolls, moneyKeys } from './money-api.ts';
import { statedWhen, tollWhen } from './money-words.ts';

type Matched = z.infer<typeof TollMatched>;
type Unmatched = z.infer<typeof TollUnmatched>;
const matchedColumn = createColumnHelper<Matched>();
const unmatchedColumn = createColumnHelper<Unmatched>();

const matchedColumns = [
  matchedColumn.accessor('row', { header: 'Line' }),
  matchedColumn.accessor('type', {
    header: 'Kind',
    cell: (c) => <Badge color={c.getValue() === 'ticket' ? 'red.9' : 'blue.8'}>{c.getValue()}</Badge>,
  }),
  matchedColumn.accessor('tripReference', {
    header: 'Trip',
    cell: (c) => (
      <Anchor component={Link} to={paths.trip(c.row.original.tripReference)} size="sm">
        {c.getValue()}
      </Anchor>
    ),
  }),
  matchedColumn.accessor((m) => m.plate ?? m.vin, { id: 'car', header: 'Plate or VIN' }),
  // On the trip's lot's clock, the zone named, like every time in the console.
  matchedColumn.accessor('at', { header: 'When', cell: (c) => tollWhen(c.row.original) }),
  matchedColumn.accessor('cents', {
    header: 'Amount',
    cell: (c) =>
      `${formatTotal(c.getValue())}${
        c.row.original.administrationCents > 0 ? ` + ${formatTotal(c.row.original.administrationCents)} admin` : ''
      }`,
  }),
  matchedColumn.accessor('reference', { header: 'Reference' }),
  matchedColumn.accessor('description', { header: 'Description', enableSorting: false }),
];

const unmatchedColumns = [
  unmatchedColumn.accessor('row', { header: 'Line' }),
  unmatchedColumn.accessor('line', {
    header: 'As written',
    enableSorting: false,
    cell: (c) => <Code style={{ wordBreak: 'break-all' }}>{c.getValue()}</Code>,
  }),
  // No trip, so no lot's clock: the time exactly as the statement wrote it, with its own offset.
  unmatchedColumn.accessor((u) => statedWhen(u), {
    id: 'statedAt',
    header: 'Time as on the statement',
    enableSorting: false,
    cell: (c) => <Code>{c.getValue()}</Code>,
  }),
  unmatchedColumn.accessor('reason', { header: 'Why it did not match', enableSorting: false }),
];

/**
 * Tolls and tickets from a CSV (issue 30 §2, decision 093): a dry run matches each row to a trip by
 * the car's plate or VIN and the time, and lists the rows that match nothing; posting is all or
 * nothing, at cost (a ticket with its administration fee).
 */
export function TollsPage() {
  useTitle('Tolls and tickets');
  const can = useCan();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [checked, setChecked] = useState<TollAnswer | null>(null);
  const [posted, setPosted] = useState<TollAnswer | null>(null);

  const run = useMutation({
    mutationFn: ({ csv, dryRun }: { csv: string; dryRun: boolean }) => importTolls(csv, dryRun),
    onSuccess: async (answer) => {
      if (answer.dryRun || !answer.posted) return setChecked(answer);
      setChecked(null);
      setPosted(answer);
      await queryClient.invalidateQueries({ queryKey: moneyKeys.all });
    },
    onError: (err) => {
      // A refused posting lists what the dry run would.
      const body = err instanceof ApiError ? (err.body as Partial<TollAnswer>) : {};
      if (Array.isArray(body.matched) && Array.isArray(body.unmatched)) setChecked(body as TollAnswer);
    },
  });

  if (!can('charges.post'))
    return (
      <Stack>
        <Title order={1}>Tolls and tickets</Title>
        <Alert color="gray" role="alert">
          Your role does not allow posting charges. Ask the front desk, a manager or the owner.
        </Alert>
      </Stack>
    );

  const choose = async (picked: File | undefined) => {
    run.reset();
    setChecked(null);
    setPosted(null);
    setFile(picked ? { name: picked.name, text: await picked.text() } : null);
  };
  const ready = checked !== null && checked.dryRun && checked.unmatched.length === 0 && checked.matched.length > 0;

  return (
    <Stack>
      <Title order={1}>Tolls and tickets</Title>
      <Text size="sm" maw={760}>
        A CSV file from the toll authority or the ticket issuer, with a header line and the columns{' '}
        <Code>{TOLL_CSV_COLUMNS.join(', ')}</Code> (a plate or a VIN on each row; the amount in dollars as billed; at
        most {TOLL_CSV_MAX_ROWS.toLocaleString('en-US')} rows). Check it first: each row is matched to the trip the car
        was out on at that time. Nothing is posted until every row matches.
      </Text>
      {posted ? (
        <Alert color="green" role="status">
          <Stack gap="xs">
            <Text size="sm">
              {/* One charge per row, as the Post button counted them: a ticket's administration fee is part of its charge. */}
              Posted {posted.matched.length} charge{posted.matched.length === 1 ? '' : 's'} from {file?.name},{' '}
              {formatTotal(posted.totalCents)} in all. The renters are told by text and email.
            </Text>
            <div>
              <Button size="xs" variant="default" onClick={() => void choose(undefined)}>
                Import another file
              </Button>
            </div>
          </Stack>
        </Alert>
      ) : (
        <Paper withBorder p="lg" style={{ borderStyle: 'dashed' }}>
          <Stack align="flex-start" gap="sm">
            <Group gap="sm">
              <CsvFileButton
                chosen={file !== null}
                label="CSV file of tolls and tickets"
                onChoose={(picked) => void choose(picked)}
              />
            </Group>
            {file && (
              <Text size="sm" data-testid="chosen-file">
                Chosen: <strong>{file.name}</strong>
              </Text>
            )}
            <Group gap="xs">
              <Button
                disabled={!file}
                loading={run.isPending && run.variables?.dryRun}
                onClick={() => file && run.mutate({ csv: file.text, dryRun: true })}
              >
                Check the file (dry run)
              </Button>
              <Button
                variant={ready ? 'filled' : 'default'}
                disabled={!ready}
                loading={run.isPending && !run.variables?.dryRun}
                onClick={() => file && run.mutate({ csv: file.text, dryRun: false })}
              >
                {ready ? `Post ${checked.matched.length} charge${checked.matched.length === 1 ? '' : 's'}` : 'Post'}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      {run.isError && (
        <Alert color="red" role="alert">
          {errorText(run.error)}
        </Alert>
      )}
      {checked && (
        <>
          <Alert color={checked.unmatched.length ? 'orange' : 'green'} role="status">
            {checked.matched.length} row{checked.matched.length === 1 ? '' : 's'} matched (
            {formatTotal(checked.totalCents)}), {checked.unmatched.length} did not.{' '}
            {checked.unmatched.length
              ? 'Fix or remove the rows that did not match, then check the file again.'
              : 'Nothing is posted yet: press Post.'}
          </Alert>
          {checked.unmatched.length > 0 && (
            <DataGrid
              caption="Rows that matched no trip"
              showCaption
              data={checked.unmatched}
              columns={unmatchedColumns}
              getRowId={(u) => String(u.row)}
              minWidth={700}
              emptyText="Every row matched."
            />
          )}
          <DataGrid
            caption="Rows matched to a trip"
            showCaption
            data={checked.matched}
            columns={matchedColumns}
            getRowId={(m) => String(m.row)}
            pageSize={50}
            minWidth={1000}
            emptyText="No row matched a trip."
          />
        </>
      )}
    </Stack>
  );
}
