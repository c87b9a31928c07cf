import { Alert, Anchor, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { type DragEvent, useState } from 'react';
import { Link } from 'react-router';
import { IMPORT_MAX_BYTES, type ImportRowError } from '@ampere/domain/contract/ops-fleet';
import { ApiError, errorText } from '../../shared/api.ts';
import { CsvFileButton } from '../../shared/csv-file-button.tsx';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { paths } from '../../shared/paths.ts';
import { useTitle } from '../../shared/use-title.ts';
import { type ImportAnswer, catalogQuery, fleetKeys, importCsv } from './fleet-api.ts';
import { NotAllowed } from './not-allowed.tsx';

const column = createColumnHelper<ImportRowError>();
const columns = [
  column.accessor('row', { header: 'Line' }),
  column.accessor('column', { header: 'Column', cell: (c) => <Code>{c.getValue()}</Code> }),
  column.accessor('message', { header: 'Problem', enableSorting: false }),
];

/** How many rows of cars a file seems to hold, before the server reads it: its non-empty lines past the header. */
function rowsText(text: string): string {
  const rows = Math.max(0, text.split(/\r?\n/).filter((l) => l.trim()).length - 1);
  return `${rows} row${rows === 1 ? '' : 's'} of cars`;
}

interface Chosen {
  name: string;
  text: string;
}

/**
 * Importing cars from a CSV (decision 084): choose or drop a file, a dry run lists each row's
 * problems and writes nothing; fix the file, choose it again, and import — all of it or none.
 */
export function ImportPage() {
  useTitle('Import cars');
  const can = useCan();
  const queryClient = useQueryClient();
  const catalog = useQuery(catalogQuery);
  const [file, setFile] = useState<Chosen | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [checked, setChecked] = useState<ImportAnswer | null>(null);
  const [done, setDone] = useState<ImportAnswer | null>(null);

  const run = useMutation({
    mutationFn: ({ csv, dryRun }: { csv: string; dryRun: boolean }) => importCsv(csv, dryRun),
    onSuccess: async (answer) => {
      if (answer.dryRun) return setChecked(answer);
      setChecked(null);
      setDone(answer);
      await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
    },
    onError: (err) => {
      // A refused import lists the same problems a dry run would.
      const errors = err instanceof ApiError ? (err.body.errors as ImportRowError[] | undefined) : undefined;
      if (errors && file) setChecked({ dryRun: false, rows: 0, imported: 0, errors });
    },
  });

  const choose = async (picked: File | undefined) => {
    run.reset();
    setChecked(null);
    setDone(null);
    setFileError(null);
    if (!picked) return;
    if (picked.size > IMPORT_MAX_BYTES) {
      setFile(null);
      setFileError(`${picked.name} is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB; split it into smaller files.`);
      return;
    }
    setFile({ name: picked.name, text: await picked.text() });
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  };

  if (!can('fleet.import')) return <NotAllowed title="Import cars" what="importing cars" />;
  const problems = checked?.errors ?? [];
  const clean = checked?.dryRun === true && problems.length === 0;

  return (
    <Stack>
      <Anchor component={Link} to={paths.fleet} size="sm">
        ← Fleet
      </Anchor>
      <Title order={1}>Import cars</Title>
      <Text size="sm" maw={760}>
        A CSV file with a header line and one car a line, in the columns{' '}
        <Code>
          {(catalog.data?.csvColumns ?? []).join(', ') ||
            'vin, year, model, colour, location, daily_rate_cents, odometer'}
        </Code>
        . The location is its name or id; the daily rate is in whole cents (8900 for $89.00). Check the file first:
        nothing is written until you import, and an import with any problem writes nothing.
      </Text>
      {done ? (
        <Alert color="green" role="status">
          <Stack gap="xs">
            <Text size="sm" fw={700}>
              Imported
            </Text>
            <Text size="sm">
              {done.imported} car{done.imported === 1 ? ' is' : 's are'} in the fleet from {file?.name}. Renters can
              find them in search now.
            </Text>
            <Group gap="xs">
              <Button component={Link} to={paths.fleet} size="xs">
                Open the fleet
              </Button>
              <Button size="xs" variant="default" onClick={() => void choose(undefined).then(() => setFile(null))}>
                Import another file
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : (
        <Paper
          withBorder
          p="lg"
          className="ops-drop-zone"
          data-dragging={dragging}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          style={{ borderStyle: 'dashed' }}
        >
          <Stack align="flex-start" gap="sm">
            <Group gap="sm">
              <CsvFileButton
                chosen={file !== null}
                label="CSV file of cars"
                onChoose={(picked) => void choose(picked)}
              />
              <Text size="sm" c="dimmed">
                or drop it here
              </Text>
            </Group>
            {file && (
              <Text size="sm" data-testid="chosen-file">
                Chosen: <strong>{file.name}</strong> ({rowsText(file.text)})
              </Text>
            )}
            {fileError && (
              <Text size="sm" c="red.9" role="alert">
                {fileError}
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
                variant={clean ? 'filled' : 'default'}
                disabled={!file}
                loading={run.isPending && !run.variables?.dryRun}
                onClick={() => file && run.mutate({ csv: file.text, dryRun: false })}
              >
                Import
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
      {clean && (
        <Alert color="green" role="status">
          All {checked.rows} rows are good. Nothing is written yet: press Import to add them.
        </Alert>
      )}
      {checked && problems.length > 0 && (
        <Stack gap="xs">
          {checked.dryRun && (
            <Alert color="orange" role="status">
              {problems.length} problem{problems.length === 1 ? '' : 's'} in {checked.rows} rows. Nothing was written:
              fix the file and choose it again.
            </Alert>
          )}
          <Title order={2} size="h4">
            Problems, by line of the file
          </Title>
          <DataGrid
            caption="Problems in the file, by line"
            data={problems}
            columns={columns}
            getRowId={(p) => `${p.row}-${p.column}-${p.message}`}
            pageSize={50}
            minWidth={340}
            emptyText="No problem."
          />
        </Stack>
      )}
    </Stack>
  );
}
