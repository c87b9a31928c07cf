import { Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import classes from './profile.module.css';

interface SectionProps {
  title: string;
  action?: ReactNode;
  loading: boolean;
  /** Shown when not loading and there is nothing to list: [title, hint]. */
  empty: [string, string] | null;
  children?: ReactNode;
  /** Shown after the list or the empty state. */
  footer?: ReactNode;
}

/** A profile panel: heading, optional action, skeleton rows while loading, or the spec's empty state. */
export function Section({ title, action, loading, empty, children, footer }: SectionProps) {
  const id = useId();
  return (
    <section className={classes.panel} aria-labelledby={id} aria-busy={loading || undefined}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {loading ? (
        <Stack gap="sm" py="xs">
          <Skeleton height={20} radius="sm" />
          <Skeleton height={20} width="60%" radius="sm" />
        </Stack>
      ) : empty ? (
        <div className={classes.row}>
          <div>
            <Text fw={700}>{empty[0]}</Text>
            <Text size="sm" c="dimmed">
              {empty[1]}
            </Text>
          </div>
        </div>
      ) : (
        children
      )}
      {footer}
    </section>
  );
}
