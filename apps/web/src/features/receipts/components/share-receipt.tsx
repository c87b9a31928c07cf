import { Button, Group, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Receipt, ReceiptLink } from '@ampere/domain/contract/receipt';
import { formatInstantInZone } from '@ampere/domain/format';
import { isSharedReceiptReady } from '@ampere/domain/receipt';
import { ApiError } from '../../../shared/api/client.ts';
import { receiptKeys } from '../api/get-receipt.ts';
import { createReceiptLink, revokeReceiptLink } from '../api/receipt-link.ts';
import classes from './receipt.module.css';

const failure = (err: unknown) =>
  err instanceof ApiError && err.status < 500 ? err.message : 'Something went wrong. Please try again.';

/**
 * The owner's receipt link (decision 031): a link anyone can open without signing in, to send to an
 * employer or an accountant. Only its hash is kept, so it is shown once, when made; a new link
 * replaces the old one, and revoking stops it working.
 */
export function ShareReceipt({ receipt }: { receipt: Receipt }) {
  const queryClient = useQueryClient();
  const [made, setMade] = useState<ReceiptLink | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: receiptKeys.own(receipt.platform_id) });
  const create = useMutation({
    mutationFn: () => createReceiptLink(receipt.platform_id),
    onSuccess: (link) => {
      setMade(link);
      setNotice(null);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: () => revokeReceiptLink(receipt.platform_id),
    onSuccess: () => {
      setMade(null);
      setNotice('Receipt link revoked: it no longer opens this receipt.');
      void refresh();
    },
  });
  const url = made ? new URL(made.url, window.location.origin).toString() : null;
  const live = made !== null || receipt.share_link !== null;

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setNotice('Receipt link copied!');
    } catch (err) {
      // Spec 8: a clipboard failure is only logged; the link stays in the field to copy by hand.
      console.error('receipt: the link could not be copied', err);
    }
  };

  return (
    <section className={classes.share} aria-labelledby="share-title">
      <Title order={2} size="h4" id="share-title">
        Share this receipt
      </Title>
      <Text size="sm">
        Anyone with the link can view this receipt without signing in. It shows the car, the dates and the payments,
        never your contact details or license.
      </Text>
      {url ? (
        <>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Receipt link"
              value={url}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
              style={{ flex: '1 1 260px' }}
            />
            <Button onClick={() => void copy()}>Copy receipt link</Button>
          </Group>
          <Text size="xs" c="dimmed">
            Copy it now: for your security it is shown only this once.
          </Text>
        </>
      ) : (
        receipt.share_link && (
          <Text size="sm">
            A receipt link made {formatInstantInZone(receipt.share_link.created_at, receipt.timezone)} is active.
          </Text>
        )
      )}
      {!isSharedReceiptReady(receipt) && (
        <Text size="xs" c="dimmed">
          The shared page shows the receipt once the trip has started.
        </Text>
      )}
      <Group gap="sm">
        <Button variant={url ? 'default' : 'filled'} onClick={() => create.mutate()} loading={create.isPending}>
          {live ? 'New link' : 'Share link'}
        </Button>
        {live && (
          <Button variant="default" onClick={() => revoke.mutate()} loading={revoke.isPending}>
            Revoke link
          </Button>
        )}
      </Group>
      {live && !url && (
        <Text size="xs" c="dimmed">
          A new link stops the current one working.
        </Text>
      )}
      {notice && (
        <Text size="sm" role="status">
          {notice}
        </Text>
      )}
      {(create.error || revoke.error) && (
        <Text size="sm" c="red.9" role="alert">
          {failure(create.error ?? revoke.error)}
        </Text>
      )}
    </section>
  );
}
