import { statusBadge } from '@ampere/domain/account';
import classes from './status-badge.module.css';

/** A status in the spec's badge vocabulary: green success, red error, yellow warning, purple waived, grey default. */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  const { label, type } = statusBadge(status);
  return <span className={`${classes.badge} ${classes[type]}`}>{label}</span>;
}
