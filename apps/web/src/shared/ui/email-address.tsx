import { Fragment } from 'react';

/**
 * An email address that wraps only where a reader expects it to: before the '@' and after each
 * dot, never in the middle of a name (a narrow card would otherwise break 'example.c' / 'om').
 */
export function EmailAddress({ email }: { email: string }) {
  const parts = email.split(/(?=@)|(?<=\.)/);
  return (
    <span style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
