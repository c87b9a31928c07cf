import { useQuery } from '@tanstack/react-query';
import { useParams } from '../../../shared/router/react.tsx';
import { paths, patterns } from '../../../shared/paths.ts';
import { TripFailure, TripLoading } from '../../../shared/errors/trip-fallback.tsx';
import { ownReceiptQueryOptions, receiptPdfUrl } from '../api/get-receipt.ts';
import { ReceiptSheet } from '../components/receipt-sheet.tsx';
import { ShareReceipt } from '../components/share-receipt.tsx';

/** /trip/:id/receipt (spec 2 'Receipt pages'): the renter's own trip's receipt, with its share link. */
export function ReceiptPage() {
  const { id } = useParams(patterns.trip.receipt);
  const receipt = useQuery(ownReceiptQueryOptions(id));
  if (receipt.isPending) return <TripLoading />;
  if (receipt.error) return <TripFailure error={receipt.error} />;
  const r = receipt.data;
  return (
    <ReceiptSheet receipt={r} myTripHref={paths.trip.detail(r.platform_id)} pdfUrl={receiptPdfUrl.own(r.platform_id)}>
      {r.status !== 'Started' && <ShareReceipt receipt={r} />}
    </ReceiptSheet>
  );
}
