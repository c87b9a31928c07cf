import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { SavedCard } from '@ampere/domain/contract/account';
import { useFlag } from '../../../shared/flags/get-flags.ts';
import { AddCardModal } from './add-card-modal.tsx';
import { CardRow } from './card-row.tsx';
import classes from './profile.module.css';
import { Section } from './section.tsx';

/** Spec 2: saved cards with a dashed 'New' button (when the allow-add-card flag is on) opening 'Add New Card'. */
export function CardsSection({ cards, loading }: { cards: SavedCard[]; loading: boolean }) {
  const canAdd = useFlag('allow-add-card');
  const [adding, setAdding] = useState(false);
  const action = canAdd ? (
    <Button
      variant="outline"
      size="xs"
      className={classes.newButton}
      onClick={() => setAdding(true)}
      leftSection={<span aria-hidden="true">+</span>}
      aria-label="New credit card"
    >
      New
    </Button>
  ) : null;
  return (
    <Section
      title="Credit Cards"
      action={action}
      loading={loading}
      empty={cards.length ? null : ['No Credit Cards', 'Book a vehicle to add a credit card']}
      footer={
        canAdd ? (
          <AddCardModal opened={adding} onClose={() => setAdding(false)} />
        ) : (
          <Text size="sm" c="dimmed" mt="xs">
            You can add a card when you book a trip.
          </Text>
        )
      }
    >
      {cards.map((c) => (
        <CardRow key={c.id} card={c} />
      ))}
    </Section>
  );
}
