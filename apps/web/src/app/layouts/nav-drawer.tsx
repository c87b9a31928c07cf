import { Drawer, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './shell.module.css';

/** The navbar's menu under 768 px, opened from its burger (loaded then: see navbar.tsx). */
export function NavDrawer({ opened, onClose, children }: { opened: boolean; onClose(): void; children: ReactNode }) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title="Menu" size="xs">
      <Stack align="stretch" className={classes.drawer}>
        {children}
      </Stack>
    </Drawer>
  );
}
