import { Alert } from '@mantine/core';
import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { TOAST_DURATION_MS } from '@ampere/domain/constants';
import classes from './booking.module.css';
import '../../../shared/ui/mantine-extra-styles.ts';

/** An error toast at the bottom of the screen that closes itself after 5000 ms (spec 8 and 9). */
export function Toast({ message, onClose }: { message: string | null; onClose(): void }) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onClose, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [message, onClose]);
  if (!message) return null;
  return createPortal(
    <div className={classes.toastArea}>
      <Alert
        color="red"
        variant="filled"
        role="alert"
        withCloseButton
        closeButtonLabel="Close"
        onClose={onClose}
        className={classes.toast}
      >
        {message}
      </Alert>
    </div>,
    document.body,
  );
}
