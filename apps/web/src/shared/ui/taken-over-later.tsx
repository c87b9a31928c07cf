import { type ReactNode, Suspense } from 'react';

/**
 * A part of a drawn page that the browser takes over after what is around it (decision 066).
 *
 * React takes a screen drawn by the server over in one commit per Suspense boundary: the page
 * outside every boundary first, then each boundary's content in a later, low-priority pass of its
 * own (a boundary inside another after the outer one). Wrapping what lies below the fold in this
 * splits the one long take-over task into shorter ones, and a tap on a part not yet taken over
 * makes React take that part over first. Nothing inside suspends, so the server draws the content,
 * never the empty fallback.
 */
export function TakenOverLater({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
