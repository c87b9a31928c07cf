import { Button, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { StatusBadge } from '../../../shared/ui/status-badge.tsx';
import classes from '../components/verification.module.css';

/** One check as a card: its name, where it stands, and what to do next. */
export function StepCard({
  id,
  title,
  row,
  start,
  opening,
  children,
}: {
  id: string;
  title: string;
  row: { badge: string; text: string; action: string | null };
  start: () => Promise<void>;
  opening: boolean;
  children: ReactNode;
}) {
  return (
    <section className={classes.panel} aria-labelledby={id}>
      <div className={classes.row}>
        <div className={classes.rowText}>
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {row.text || 'Verified.'}
          </Text>
        </div>
        <div className={classes.rowEnd}>
          <StatusBadge status={row.badge} />
          {row.action && (
            <Button size="sm" onClick={() => void start()} loading={opening}>
              {row.action}
            </Button>
          )}
        </div>
      </div>
      {children}
    </section>
  );
}
