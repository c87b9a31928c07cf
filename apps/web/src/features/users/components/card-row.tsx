import { ActionIcon, Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import type { SavedCard } from '@ampere/domain/contract/account';
import { endingIn } from '@ampere/domain/format';
import { CardBrandIcon, cardBrandName } from '../../../shared/ui/card-brand-icon.tsx';
import { useDeleteCreditCard } from '../api/delete-credit-card.ts';
import classes from './profile.module.css';

/** A saved card: brand mark, brand name, 'ending in ...4242', and the (hidden until hovered or focused) remove button. */
export function CardRow({ card }: { card: SavedCard }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteCreditCard();
  const name = cardBrandName(card.card_brand);
  const ending = endingIn(card.last4);
  return (
    <div className={classes.row}>
      <CardBrandIcon brand={card.card_brand} />
      <div className={classes.grow}>
        <Text fw={600}>{name}</Text>
        <Text size="sm" c="dimmed">
          {ending}
        </Text>
      </div>
      <ActionIcon
        variant="subtle"
        color="red.9"
        size="lg"
        className={classes.remove}
        aria-label={`Remove card ${ending}`}
        onClick={() => setConfirming(true)}
      >
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          aria-hidden="true"
          focusable="false"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
        </svg>
      </ActionIcon>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Remove card?" centered>
        <Text>
          Remove the {name} card {ending} from your profile? You can add it again later.
        </Text>
        {remove.error && (
          <Text role="alert" c="red.9" size="sm" mt="sm">
            We couldn't remove this card. Please try again.
          </Text>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            color="red.9"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(card.id, {
                onSuccess: () => setConfirming(false),
                onError: (err) => console.error(`Could not remove card ${card.id}`, err),
              })
            }
          >
            Remove card
          </Button>
        </Group>
      </Modal>
    </div>
  );
}
