import { Link, useLocation } from '../../shared/router/react.tsx';
import { useClientConfig } from '../../shared/api/config.ts';
import { paths } from '../../shared/paths.ts';
import classes from './shell.module.css';

/** Logo rule (spec 2): / when signed in, otherwise /search, or the marketing site when already on /search. */
export function Logo({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  const config = useClientConfig();
  const mark = (
    <>
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" style={{ fill: 'var(--ampere-button-bg)' }} />
        <path d="M18 4 8 18h7l-2 10 11-15h-7z" style={{ fill: 'var(--ampere-icon-color)' }} />
      </svg>
      <span className={classes.wordmark}>Ampere</span>
    </>
  );
  if (!signedIn && pathname === paths.search()) {
    return (
      <a href={config.marketingSiteUrl} className={classes.logo} aria-label="Ampere home">
        {mark}
      </a>
    );
  }
  return (
    <Link to={signedIn ? paths.home() : paths.search()} className={classes.logo} aria-label="Ampere home">
      {mark}
    </Link>
  );
}
