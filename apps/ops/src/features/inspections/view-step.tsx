import { Card, Progress, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { InspectionPhoto, InspectionResult } from '@ampere/domain/contract/ops-inspections';
import {
  INSPECTION_VIEWS,
  INSPECTION_VIEW_HINTS,
  INSPECTION_VIEW_LABELS,
  PHOTO_FORMATS_ACCEPT,
  type InspectionStage,
  type InspectionView,
} from '@ampere/domain/inspections';
import { errorText } from '../../shared/api.ts';
import { uploadViewPhoto } from './inspections-api.ts';
import { PhotoFigure } from './photo-figure.tsx';
import classes from './inspections.module.css';

/**
 * One step of the guided set: what to frame, the photo taken (its time and reading), and a file
 * input that opens a phone's camera (`capture`), or takes a file on a desk.
 */
export function ViewStep({
  tripId,
  stage,
  view,
  photo,
  zone,
  isNext,
  canRecord,
  onSaved,
}: {
  tripId: string;
  stage: InspectionStage;
  view: InspectionView;
  photo: InspectionPhoto | null;
  zone: string;
  isNext: boolean;
  canRecord: boolean;
  onSaved: (result: InspectionResult) => void;
}) {
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const label = INSPECTION_VIEW_LABELS[view];
  const step = INSPECTION_VIEWS.indexOf(view) + 1;

  const upload = async (file: File) => {
    setMessage(null);
    setProgress(0);
    try {
      onSaved(await uploadViewPhoto(tripId, stage, view, file, setProgress));
      setMessage({ ok: true, text: `${label}: photo saved.` });
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <Card
      withBorder
      padding="sm"
      component="li"
      aria-label={`Step ${step} of ${INSPECTION_VIEWS.length}: ${label}`}
      data-view={view}
      className={isNext ? classes.next : undefined}
    >
      <Stack gap={6}>
        <Text fw={700} size="sm">
          {step}. {label}
          {isNext && (
            <Text span size="xs" c="ampere.9" fw={700}>
              {' '}
              · next
            </Text>
          )}
        </Text>
        {photo ? (
          <PhotoFigure photo={photo} zone={zone} alt={`${label}, as photographed`} />
        ) : (
          <div className={classes.empty}>Not taken yet</div>
        )}
        {!photo && (
          <Text size="xs" c="dimmed">
            {INSPECTION_VIEW_HINTS[view]}
          </Text>
        )}
        {progress !== null && (
          <Progress value={Math.round(progress * 100)} aria-label={`Uploading the ${label} photo`} />
        )}
        {message && (
          <Text size="xs" c={message.ok ? 'ampere.9' : 'red.9'} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </Text>
        )}
        {canRecord && (
          <div>
            <label htmlFor={inputId} className="ops-file-button">
              {photo ? 'Retake' : 'Take photo'}
            </label>
            <input
              id={inputId}
              type="file"
              accept={PHOTO_FORMATS_ACCEPT}
              capture="environment"
              className="ops-file-input"
              aria-label={`${photo ? 'Retake' : 'Take'} the ${label.toLowerCase()} photo`}
              disabled={progress !== null}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) void upload(file);
              }}
            />
          </div>
        )}
      </Stack>
    </Card>
  );
}
