import { CloseButton, Group, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { LazyConciergeModal as ConciergeModal } from './lazy-concierge-modal.tsx';
import classes from './shell.module.css';

const KEY = 'one-way-banner-dismissed';

/** 'We’re now offering one-way trips!' — search and vehicle pages only; dismissal is remembered. */
export function OneWayBanner() {
  const [dismissed, setDismissed] = useState(() => {
    try {
      return localStorage.getItem(KEY) === '1';
    } catch {
      return false;
    }
  });
  const [open, setOpen] = useState(false);
  if (dismissed) return null;
  return (
    <div className={classes.banner} role="region" aria-label="Announcement">
      <Group justify="center" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>
          We’re now offering one-way trips!
        </Text>
        <UnstyledButton className={classes.bannerLink} onClick={() => setOpen(true)}>
          Book by text
        </UnstyledButton>
      </Group>
      <CloseButton
        aria-label="Dismiss announcement"
        className={classes.bannerClose}
        onClick={() => {
          setDismissed(true);
          try {
            localStorage.setItem(KEY, '1');
          } catch {
            // Private mode: the banner stays dismissed for this visit only.
          }
        }}
      />
      <ConciergeModal opened={open} onClose={() => setOpen(false)} />
    </div>
  );
}
