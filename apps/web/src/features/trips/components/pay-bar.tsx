import { Button, Text } from '@mantine/core';
import { formatTotal } from '@ampere/domain/money';
import { useNavigate } from '../../../shared/router/react.tsx';
import classes from './booking.module.css';

/**
 * The foot of Review & Pay: why the trip changed while its payment was made, or why paying stopped;
 * Back; the amount due (or, once received, that the trip is opening) and the submit button. Under
 * 768 px the total and the submit button stay at the foot of the screen.
 */
export function PayBar(props: {
  notice: string | null;
  error: string | null;
  dueCents: number;
  received: boolean;
  label: string;
  canSubmit: boolean;
  submitting: boolean;
}) {
  const { notice, error, dueCents, received, label, canSubmit, submitting } = props;
  const navigate = useNavigate();
  return (
    <>
      {notice && !error && (
        <Text role="status" size="sm" mt="md">
          {notice}
        </Text>
      )}
      {error && (
        <Text role="alert" c="red.9" size="sm" mt="md" id="pay-submit-error">
          {error}
        </Text>
      )}
      <div className={classes.actions} style={{ marginTop: 20 }}>
        <Button variant="default" onClick={() => void navigate(-1)} disabled={submitting}>
          Back
        </Button>
        <div className={classes.payBar}>
          {received ? (
            // The pressed button keeps its spinner (the one loader) beside these words until the trip opens.
            <div role="status">
              <Text size="sm" fw={700}>
                Payment received.
              </Text>
              <Text size="xs" c="dark.3">
                Opening your trip…
              </Text>
            </div>
          ) : (
            <div className={classes.payBarTotal} aria-hidden="true">
              <Text size="xs" c="dark.3">
                Due now
              </Text>
              <Text fw={700}>{formatTotal(dueCents)}</Text>
            </div>
          )}
          <Button type="submit" size="md" disabled={!canSubmit} loading={submitting}>
            {label}
          </Button>
        </div>
      </div>
    </>
  );
}
