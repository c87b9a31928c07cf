import { Badge, Group, Text } from '@mantine/core';
import type { InspectionPhoto } from '@ampere/domain/contract/ops-inspections';
import { readingWords } from '@ampere/domain/inspections';
import { formatDayTime } from '../../shared/dates.ts';
import classes from './inspections.module.css';

/** One inspection photo with when it was taken, the car's reading then, and whose it is. */
export function PhotoFigure({ photo, alt, zone }: { photo: InspectionPhoto; alt: string; zone: string }) {
  return (
    <figure style={{ margin: 0 }}>
      <a href={photo.url} target="_blank" rel="noopener">
        <img
          className={classes.photo}
          src={photo.thumbUrl}
          srcSet={photo.srcset}
          sizes="(min-width: 900px) 300px, 50vw"
          alt={alt}
        />
      </a>
      <Text component="figcaption" size="xs" mt={4}>
        <Group gap={6} wrap="wrap" component="span">
          {photo.takenBy === 'renter' && (
            <Badge size="xs" color="#a63e00" component="span">
              Renter’s photo
            </Badge>
          )}
          <time dateTime={photo.takenAt}>{formatDayTime(photo.takenAt, zone)}</time>
        </Group>
        <Text span size="xs" c={photo.reading.batteryLevel === null ? '#a63e00' : 'dimmed'} display="block">
          {readingWords(photo.reading)}
        </Text>
        {photo.takenByName && (
          <Text span size="xs" c="dimmed" display="block">
            {photo.takenBy === 'renter' ? 'Renter' : 'Staff'}: {photo.takenByName}
          </Text>
        )}
      </Text>
    </figure>
  );
}
