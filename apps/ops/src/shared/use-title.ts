import { useEffect } from 'react';

/** Names the browser tab after the page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Ampere operator console`;
  }, [title]);
}
