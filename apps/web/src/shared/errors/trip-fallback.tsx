import { Center, Loader } from '@mantine/core';
import { ApiError } from '../api/client.ts';
import { NotFoundPage } from './error-pages.tsx';

/** What a trip's pages show while the trip loads. */
export function TripLoading() {
  return (
    <Center py={80}>
      <Loader aria-label="Loading your trip" />
    </Center>
  );
}

/** A trip that could not be read: someone else's or unknown is the not-found page; anything else goes to the error boundary. */
export function TripFailure({ error }: { error: unknown }) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <NotFoundPage />;
  throw error;
}
