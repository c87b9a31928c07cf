import {
  Alert,
  Button,
  Grid,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useId, useState } from 'react';
import type { DamageMark, InspectionResult } from '@ampere/domain/contract/ops-inspections';
import {
  DAMAGE_NOTE_MAX,
  DAMAGE_SEVERITIES,
  DAMAGE_SEVERITY_LABELS,
  type DamagePoint,
  type DamageSeverity,
  INSPECTION_VIEWS,
  INSPECTION_VIEW_LABELS,
  PHOTO_FORMATS_ACCEPT,
  type InspectionStage,
  type InspectionView,
  viewAtPoint,
} from '@ampere/domain/inspections';
import { errorText } from '../../shared/api.ts';
import { MarkableCarDrawing } from './car-drawing.tsx';
import { addCloseup, addDamage, removeDamage } from './inspections-api.ts';
import { PhotoFigure } from './photo-figure.tsx';

/**
 * Damage marked on the drawing (decision 089): click (or move the marker with the arrow keys and
 * press Enter) where the damage is, then say which view it is seen in, how bad, what it is, and
 * add close-ups.
 */
export function DamagePanel({
  tripId,
  stage,
  marks,
  zone,
  canRecord,
  onChanged,
}: {
  tripId: string;
  stage: InspectionStage;
  marks: DamageMark[];
  zone: string;
  canRecord: boolean;
  onChanged: (result?: InspectionResult) => void;
}) {
  const [point, setPoint] = useState<DamagePoint | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="damage-title">
      <Title order={2} size="h4" id="damage-title" mb="xs">
        Damage ({marks.length})
      </Title>
      <Grid>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          {canRecord ? (
            <MarkableCarDrawing
              marks={marks.map((m, i) => ({ id: m.id, x: m.x, y: m.y, label: String(i + 1) }))}
              onPick={setPoint}
            />
          ) : null}
          {canRecord && (
            <Text size="xs" c="dimmed" mt={4} ta="center">
              Click where the damage is, or focus the drawing, move with the arrow keys and press Enter.
            </Text>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <Stack>
            {point && (
              <NewMark
                key={`${point.x}-${point.y}`}
                tripId={tripId}
                stage={stage}
                point={point}
                existing={marks.map((m) => m.id)}
                onDone={(result) => {
                  setPoint(null);
                  if (result) onChanged(result);
                }}
              />
            )}
            {marks.length === 0 ? (
              <Text size="sm" c="dimmed">
                No damage marked.
              </Text>
            ) : (
              <ol style={{ margin: 0, paddingLeft: 20 }}>
                {marks.map((m) => (
                  <MarkItem
                    key={m.id}
                    tripId={tripId}
                    stage={stage}
                    mark={m}
                    zone={zone}
                    canRecord={canRecord}
                    onChanged={onChanged}
                  />
                ))}
              </ol>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </Paper>
  );
}

function NewMark({
  tripId,
  stage,
  point,
  existing,
  onDone,
}: {
  tripId: string;
  stage: InspectionStage;
  point: DamagePoint;
  existing: string[];
  onDone: (result?: InspectionResult) => void;
}) {
  const [view, setView] = useState<InspectionView>(viewAtPoint(point));
  const [severity, setSeverity] = useState<DamageSeverity>('minor');
  const [note, setNote] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const filesId = useId();

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      let result = await addDamage(tripId, stage, { x: point.x, y: point.y, view, severity, note });
      const created = result.inspection?.damage.find((d) => !existing.includes(d.id));
      for (const file of files) if (created) result = await addCloseup(tripId, stage, created.id, file);
      onDone(result);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper
      withBorder
      p="sm"
      component="form"
      aria-label="New damage mark"
      onSubmit={(e) => (e.preventDefault(), void save())}
    >
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          New damage mark ({Math.round(point.x * 100)}% across, {Math.round(point.y * 100)}% down)
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <NativeSelect
            label="Seen in"
            value={view}
            onChange={(e) => setView(e.currentTarget.value as InspectionView)}
            data={INSPECTION_VIEWS.map((v) => ({ value: v, label: INSPECTION_VIEW_LABELS[v] }))}
          />
          <NativeSelect
            label="How bad"
            value={severity}
            onChange={(e) => setSeverity(e.currentTarget.value as DamageSeverity)}
            data={DAMAGE_SEVERITIES.map((s) => ({ value: s, label: DAMAGE_SEVERITY_LABELS[s] }))}
          />
        </SimpleGrid>
        <Textarea
          label="What is it"
          required
          autosize
          minRows={2}
          maxLength={DAMAGE_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          data-autofocus
        />
        <div>
          <label htmlFor={filesId} className="ops-file-button">
            Add close-ups
          </label>
          <input
            id={filesId}
            type="file"
            multiple
            accept={PHOTO_FORMATS_ACCEPT}
            capture="environment"
            className="ops-file-input"
            aria-label="Add close-up photos of the damage"
            onChange={(e) => setFiles(Array.from(e.currentTarget.files ?? []))}
          />
          {files.length > 0 && (
            <Text span size="xs" ml="xs">
              {files.length} close-up{files.length === 1 ? '' : 's'} chosen
            </Text>
          )}
        </div>
        {error && (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        )}
        <Group gap="xs">
          <Button type="submit" size="xs" loading={saving} disabled={!note.trim()}>
            Save mark
          </Button>
          <Button size="xs" variant="default" onClick={() => onDone()} disabled={saving}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function MarkItem({
  tripId,
  stage,
  mark,
  zone,
  canRecord,
  onChanged,
}: {
  tripId: string;
  stage: InspectionStage;
  mark: DamageMark;
  zone: string;
  canRecord: boolean;
  onChanged: (result?: InspectionResult) => void;
}) {
  const inputId = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<InspectionResult | undefined>) => {
    setError(null);
    setBusy(true);
    try {
      onChanged(await work());
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li style={{ marginBottom: 12 }}>
      <Text size="sm" fw={600}>
        {INSPECTION_VIEW_LABELS[mark.view]} · {DAMAGE_SEVERITY_LABELS[mark.severity]}
      </Text>
      <Text size="sm">{mark.note}</Text>
      {mark.closeups.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" mt={4}>
          {mark.closeups.map((p, i) => (
            <PhotoFigure key={p.id} photo={p} zone={zone} alt={`Close-up ${i + 1} of: ${mark.note}`} />
          ))}
        </SimpleGrid>
      )}
      {error && (
        <Text size="xs" c="red.9" role="alert">
          {error}
        </Text>
      )}
      {canRecord && (
        <Group gap="xs" mt={4}>
          <label htmlFor={inputId} className="ops-file-button">
            Add close-up
          </label>
          <input
            id={inputId}
            type="file"
            accept={PHOTO_FORMATS_ACCEPT}
            capture="environment"
            className="ops-file-input"
            aria-label={`Add a close-up of: ${mark.note}`}
            disabled={busy}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (file) void run(() => addCloseup(tripId, stage, mark.id, file));
            }}
          />
          <Button
            size="compact-xs"
            variant="outline"
            color="red.9"
            disabled={busy}
            onClick={() => {
              if (window.confirm(`Remove the mark “${mark.note}” and its close-ups?`))
                void run(async () => {
                  await removeDamage(tripId, stage, mark.id);
                  return undefined;
                });
            }}
          >
            Remove
          </Button>
        </Group>
      )}
    </li>
  );
}
