import { Alert, Button, CloseButton, FileButton, Group, Progress, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { RenterInspections } from '@ampere/domain/contract/ops-inspections';
import { formatInstantInZone } from '@ampere/domain/format';
import { INSPECTION_STAGE_MOMENTS, PHOTO_FORMATS_ACCEPT } from '@ampere/domain/inspections';
import { ApiError } from '../../../shared/api/client.ts';
import {
  type InspectionSource,
  addInspectionPhoto,
  inspectionKeys,
  useInspectionPhotos,
} from '../api/inspection-photos.ts';
import classes from './inspection-photos.module.css';

const STAGE_TITLES = { check_out: 'At pickup', check_in: 'At return' } as const;

/** A chosen file and its preview address, kept until it is sent or removed. */
function usePreviews(files: File[]) {
  const urls = useMemo(() => files.map((f) => URL.createObjectURL(f)), [files]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  return urls;
}

/**
 * The car's photos on the trip and key pages (issue 30 §1, decision 090): at pickup and at return
 * the renter adds their own (the phone's camera opens), and sees every photo in the trip's record,
 * ours and theirs. Outside the window it says when photos can be added.
 */
export function InspectionPhotos({ source }: { source: InspectionSource }) {
  const query = useInspectionPhotos(source);
  if (!query.data) return null;
  const data = query.data;
  // Shown while photos can be added, and once the record has some; an upcoming trip says nothing yet.
  if (!data.open && data.stages.length === 0) return null;
  return (
    <section className={classes.panel} aria-labelledby="inspection-photos-title">
      <Title order={2} size="h4" id="inspection-photos-title">
        Photos of the car
      </Title>
      {data.open ? (
        <AddPhotos source={source} data={data} open={data.open} />
      ) : (
        data.next && (
          <Text size="sm" c="dimmed">
            You can add your own photos of the car {INSPECTION_STAGE_MOMENTS[data.next.stage]} from{' '}
            {formatInstantInZone(data.next.opensAt, data.timezone)}.
          </Text>
        )
      )}
      {data.stages.map((s) => (
        <div key={s.stage}>
          <Title order={3} size="h5" mb={6}>
            {STAGE_TITLES[s.stage]} ({s.photos.length})
          </Title>
          {s.damage.length > 0 && (
            <ul className={classes.damage}>
              {s.damage.map((d) => (
                <li key={d.id}>
                  <Text size="sm">Damage noted: {d.note}</Text>
                </li>
              ))}
            </ul>
          )}
          <ul className={classes.grid}>
            {s.photos.map((p, i) => (
              <li key={p.id}>
                <a href={p.url} target="_blank" rel="noopener">
                  <img
                    className={classes.photo}
                    src={p.thumbUrl}
                    alt={`${STAGE_TITLES[s.stage]}, ${i + 1} of ${s.photos.length}${p.takenBy === 'renter' ? ' (yours)' : ''}`}
                    loading="lazy"
                  />
                </a>
                <Text size="xs" fw={600} mt={2}>
                  {p.takenBy === 'renter' ? 'Your photo' : 'Our photo'}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatInstantInZone(p.takenAt, data.timezone)}
                </Text>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function AddPhotos({
  source,
  data,
  open,
}: {
  source: InspectionSource;
  data: RenterInspections;
  open: NonNullable<RenterInspections['open']>;
}) {
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState<{ done: number; total: number } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [sent, setSent] = useState<number | null>(null);
  const previews = usePreviews(files);
  const room = data.photosLeft;

  const choose = (chosen: File[]) => {
    setErrors([]);
    setSent(null);
    const all = [...files, ...chosen];
    setFiles(all.slice(0, room));
    if (all.length > room)
      setErrors([
        `You can add ${room} more ${room === 1 ? 'photo' : 'photos'} ${INSPECTION_STAGE_MOMENTS[open.stage]}.`,
      ]);
  };
  const send = async () => {
    const failed: File[] = [];
    const problems: string[] = [];
    setErrors([]);
    setSent(null);
    let ok = 0;
    for (const [i, file] of files.entries()) {
      setSending({ done: i, total: files.length });
      try {
        const result = await addInspectionPhoto(source, file);
        queryClient.setQueryData(inspectionKeys.detail(source), result);
        ok += 1;
      } catch (err) {
        failed.push(file);
        problems.push(`${file.name}: ${err instanceof ApiError ? err.message : 'it could not be sent. Try again.'}`);
      }
    }
    setSending(null);
    setFiles(failed);
    setErrors(problems);
    setSent(ok);
  };

  return (
    <div className={classes.add}>
      <Text size="sm">
        Walk round the car and photograph anything already scratched, dented, dirty or missing. Your photos join ours in
        the trip’s record, and we both see them. You can add photos {INSPECTION_STAGE_MOMENTS[open.stage]} until{' '}
        {formatInstantInZone(open.closesAt, data.timezone)}.
      </Text>
      {room > 0 ? (
        <FileButton onChange={choose} accept={PHOTO_FORMATS_ACCEPT} multiple capture="environment">
          {(props) => (
            <Button {...props} variant="light" disabled={sending !== null}>
              Add photos
            </Button>
          )}
        </FileButton>
      ) : (
        <Text size="sm" c="dimmed">
          You have added as many photos as we take {INSPECTION_STAGE_MOMENTS[open.stage]}.
        </Text>
      )}
      {files.length > 0 && (
        <>
          <ul className={classes.grid} aria-label="Photos to send">
            {files.map((f, i) => (
              <li key={`${f.name}-${i}`} className={classes.preview}>
                <img
                  className={classes.photo}
                  src={previews[i]}
                  alt={`To send, ${i + 1} of ${files.length}: ${f.name}`}
                />
                {sending === null && (
                  <CloseButton
                    className={classes.remove}
                    size="sm"
                    aria-label={`Remove ${f.name}`}
                    onClick={() => setFiles(files.filter((_, j) => j !== i))}
                  />
                )}
              </li>
            ))}
          </ul>
          <Group gap="sm">
            <Button onClick={() => void send()} loading={sending !== null}>
              Send {files.length} {files.length === 1 ? 'photo' : 'photos'}
            </Button>
          </Group>
        </>
      )}
      {sending && (
        <div role="status">
          <Text size="sm">
            Sending photo {sending.done + 1} of {sending.total}…
          </Text>
          <Progress value={(sending.done / sending.total) * 100} aria-label="Sending your photos" />
        </div>
      )}
      {sent !== null && sent > 0 && (
        <Text size="sm" c="ampere.8" role="status">
          {sent === 1 ? 'Your photo is' : `${sent} photos are`} in the trip’s record.
        </Text>
      )}
      {errors.length > 0 && (
        <Alert color="red" role="alert" title="Not sent">
          {errors.map((e) => (
            <Text size="sm" key={e}>
              {e}
            </Text>
          ))}
        </Alert>
      )}
    </div>
  );
}
