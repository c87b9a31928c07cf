import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { NotFoundPage } from '../../errors/routes/error-pages.tsx';
import { ownReceiptQueryOptions, receiptPdfUrl } from '../api/get-receipt.ts';
import { ReceiptSheet } from '../components/receipt-sheet.tsx';
import { ShareReceipt } from '../components/share-receipt.tsx';

/** /trip/:id/receipt (spec 2 'Receipt pages'): the renter's own trip's receipt, with its share link. */
export function ReceiptPage() {
  const { id = '' } = useParams();
  const receipt = useQuery(ownReceiptQueryOptions(id));
  if (receipt.isPending) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading your receipt" />
      </Center>
    );
  }
  if (receipt.error) {
    // Someone else's trip, or none: the not-found page; anything else goes to the error boundary.
    if (receipt.error instanceof ApiError && (receipt.error.status === 404 || receipt.error.status === 400)) return <NotFoundPage />;
    throw receipt.error;
  }
  const r = receipt.data;
  return (
    <ReceiptSheet receipt={r} myTripHref={paths.trip.detail(r.platform_id)} pdfUrl={receiptPdfUrl.own(r.platform_id)}>
      {r.status !== 'Started' && <ShareReceipt receipt={r} />}
    </ReceiptSheet>
  );
}
