import { Center, Loader, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from '../../../shared/router/react.tsx';
import {
  RECEIPT_HEADING,
  RECEIPT_TOKEN_PATTERN,
  RECEIPT_UNAVAILABLE_MESSAGE,
  isSharedReceiptReady,
} from '@ampere/domain/receipt';
import { paths } from '../../../shared/paths.ts';
import { receiptPdfUrl, sharedReceiptQueryOptions } from '../api/get-receipt.ts';
import { ReceiptSheet } from '../components/receipt-sheet.tsx';
import classes from '../components/receipt.module.css';

/** A shared receipt is for whoever holds the link, not for search engines. */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

/**
 * /receipt?token=… (public, spec 2 and 6): the receipt a renter shared, the same page as the trip's
 * receipt. Spec 2 and 8: when the receipt cannot be read, or the trip has no ride yet, it says
 * 'Unable to load receipt information. Please try again later.' (the failure is logged). My Trip
 * shows only to the trip's own renter, signed in: for anyone else it would lead to a sign-in or a
 * page that is not theirs (decision 031).
 */
export function SharedReceiptPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const wellFormed = RECEIPT_TOKEN_PATTERN.test(token);
  const receipt = useQuery({ ...sharedReceiptQueryOptions(token), enabled: wellFormed });
  useNoIndex();
  useEffect(() => {
    if (!wellFormed) console.error('receipt: the link carries no valid token');
    else if (receipt.error) console.error('receipt: the shared receipt could not be loaded', receipt.error);
  }, [wellFormed, receipt.error]);

  if (wellFormed && receipt.isPending) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading the receipt" />
      </Center>
    );
  }
  const r = receipt.data;
  if (!r || !isSharedReceiptReady(r)) {
    return (
      <div className={classes.sheet}>
        <Title order={1}>{RECEIPT_HEADING}</Title>
        <Text role="alert">{RECEIPT_UNAVAILABLE_MESSAGE}</Text>
      </div>
    );
  }
  return (
    <ReceiptSheet
      receipt={r}
      myTripHref={r.viewer_is_owner ? paths.trip.detail(r.platform_id) : null}
      pdfUrl={receiptPdfUrl.shared(token)}
    />
  );
}
