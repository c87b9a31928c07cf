import { ActionIcon, Button, Group, Image, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import type { Evidence } from '@ampere/domain/contract/ops-money';
import type { EvidenceKind } from '@ampere/domain/fees';
import { errorText } from '../../shared/api.ts';
import { uploadEvidence } from './money-api.ts';

/** One file chosen for a charge: uploading, uploaded (with its evidence id) or refused. */
export interface PickedFile {
  key: string;
  name: string;
  kind: 'photo' | 'document';
  /** A local preview of a photo (an object URL), while the form is open. */
  preview: string | null;
  state: 'uploading' | 'ready' | 'failed';
  evidence: Evidence | null;
  error: string | null;
}

export interface Reading {
  key: string;
  label: string;
  value: string;
}

const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const ACCEPT = [...PHOTO_TYPES, 'application/pdf'].join(',');
let next = 0;

/** The kinds of evidence what is picked amounts to, for the catalogue's rule (only uploaded files count). */
export function pickedKinds(files: readonly PickedFile[], readings: readonly Reading[]): { kind: EvidenceKind }[] {
  return [
    ...files.filter((f) => f.state === 'ready').map((f) => ({ kind: f.kind })),
    ...readings.filter((r) => r.label.trim() && r.value.trim()).map(() => ({ kind: 'reading' as const })),
  ];
}

/**
 * A charge's evidence: photos and documents uploaded as they are chosen (each with a preview, and a
 * way to take it off again), and readings typed as a label and a value — only the kinds its fee accepts.
 */
export function EvidencePicker({
  tripId,
  accepts,
  files,
  onFiles,
  readings,
  onReadings,
  error,
}: {
  tripId: string;
  accepts: readonly EvidenceKind[];
  files: PickedFile[];
  onFiles: (update: (files: PickedFile[]) => PickedFile[]) => void;
  readings: Reading[];
  onReadings: (readings: Reading[]) => void;
  error: string | null;
}) {
  const inputId = useId();
  const errorId = useId();
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const made = previews.current;
    return () => made.forEach((url) => URL.revokeObjectURL(url));
  }, []);
  const takesFiles = accepts.includes('photo') || accepts.includes('document');
  const takesReadings = accepts.includes('reading');

  const choose = (chosen: File[]) => {
    for (const file of chosen) {
      const kind: PickedFile['kind'] = PHOTO_TYPES.includes(file.type) ? 'photo' : 'document';
      const preview = kind === 'photo' && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
      if (preview) previews.current.add(preview);
      const key = `file-${++next}`;
      const label = file.name.replace(/\.[a-z0-9]+$/i, '');
      onFiles((list) => [
        ...list,
        { key, name: file.name, kind, preview, state: 'uploading', evidence: null, error: null },
      ]);
      uploadEvidence(tripId, file, kind, label).then(
        (evidence) => onFiles((list) => list.map((f) => (f.key === key ? { ...f, state: 'ready', evidence } : f))),
        (err: unknown) =>
          onFiles((list) => list.map((f) => (f.key === key ? { ...f, state: 'failed', error: errorText(err) } : f))),
      );
    }
  };

  return (
    <Stack gap="xs" role="group" aria-labelledby={`${inputId}-title`} aria-describedby={error ? errorId : undefined}>
      <Text fw={500} size="sm" id={`${inputId}-title`}>
        Evidence
      </Text>
      {takesFiles && (
        <Group gap="sm">
          <label htmlFor={inputId} className="ops-file-button">
            {files.length ? 'Add more files' : accepts.includes('photo') ? 'Add photos' : 'Add a document'}
          </label>
          <input
            id={inputId}
            type="file"
            multiple
            accept={ACCEPT}
            className="ops-file-input"
            aria-label="Evidence files: photos (JPEG, PNG, WebP) or PDF documents"
            onChange={(e) => {
              const chosen = Array.from(e.currentTarget.files ?? []);
              e.currentTarget.value = '';
              choose(chosen);
            }}
          />
          <Text size="xs" c="dimmed">
            JPEG, PNG, WebP or PDF
          </Text>
        </Group>
      )}
      {files.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0 }}>
          {files.map((f) => (
            <Paper component="li" withBorder p={4} key={f.key} aria-label={f.name}>
              {f.preview ? (
                <Image src={f.preview} alt={`Preview of ${f.name}`} h={90} fit="cover" radius="xs" />
              ) : (
                <Text size="xs" h={90} p="xs" style={{ wordBreak: 'break-all' }}>
                  PDF: {f.name}
                </Text>
              )}
              <Group justify="space-between" gap={4} wrap="nowrap" mt={4}>
                <Text
                  size="xs"
                  c={f.state === 'failed' ? 'red.9' : 'dimmed'}
                  role={f.state === 'failed' ? 'alert' : undefined}
                >
                  {f.state === 'uploading' ? 'Uploading…' : f.state === 'ready' ? 'Uploaded' : f.error}
                </Text>
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  size="sm"
                  aria-label={`Remove ${f.name}`}
                  onClick={() => onFiles((list) => list.filter((x) => x.key !== f.key))}
                >
                  ×
                </ActionIcon>
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {takesReadings && (
        <Stack gap={6}>
          {readings.map((r, i) => (
            <Group key={r.key} gap="xs" align="flex-end" wrap="wrap">
              <TextInput
                label={`Reading ${i + 1}: what`}
                placeholder="Odometer at return"
                value={r.label}
                maxLength={120}
                onChange={(e) => {
                  const label = e.currentTarget.value;
                  onReadings(readings.map((x) => (x.key === r.key ? { ...x, label } : x)));
                }}
              />
              <TextInput
                label={`Reading ${i + 1}: value`}
                placeholder="48,210 mi"
                value={r.value}
                maxLength={120}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  onReadings(readings.map((x) => (x.key === r.key ? { ...x, value } : x)));
                }}
              />
              <Button
                variant="subtle"
                color="red.9"
                size="xs"
                onClick={() => onReadings(readings.filter((x) => x.key !== r.key))}
                aria-label={`Remove reading ${i + 1}`}
              >
                Remove
              </Button>
            </Group>
          ))}
          <div>
            <Button
              variant="default"
              size="xs"
              onClick={() => onReadings([...readings, { key: `reading-${++next}`, label: '', value: '' }])}
            >
              Add a reading
            </Button>
          </div>
        </Stack>
      )}
      {error && (
        <Text size="sm" c="red.9" id={errorId} role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
