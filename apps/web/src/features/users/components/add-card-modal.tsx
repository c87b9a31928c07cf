import { Button, Center, Group, Loader, Modal, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useSetupIntent } from '../api/create-setup-intent.ts';
import { cardKeys } from '../../payments/public/get-credit-cards.ts';
import type { CardFormProps } from './card-form-props.ts';
import { SandboxCardForm } from './sandbox-card-form.tsx';

// Stripe.js and its React bindings load only when the gateway is Stripe (their own chunk).
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx').then((m) => ({ default: m.StripeCardForm })));

/** Spec 2 and 4: 'Add New Card' with Cancel and Save; Save only when the form is complete and not saving. */
export function AddCardModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add New Card" centered size="md">
      {opened && <AddCard onClose={onClose} />}
    </Modal>
  );
}

function AddCard({ onClose }: { onClose(): void }) {
  const [attempt] = useState(() => crypto.randomUUID());
  const intent = useSetupIntent(attempt);
  const queryClient = useQueryClient();
  const confirm = useRef<CardFormProps['confirmRef']['current']>(null);
  const [complete, setComplete] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // Spec 8: add-card failures are logged; loading ends.
    if (intent.error) console.error('Could not create a setup intent for the card form', intent.error);
  }, [intent.error]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!complete || saving || !confirm.current) return;
    setSaving(true);
    setError(null);
    try {
      await confirm.current();
      await queryClient.invalidateQueries({ queryKey: cardKeys.list() });
      onClose();
    } catch (err) {
      // Spec 8: the provider's message is shown under the card form; saving ends.
      console.error('Saving the card failed', err);
      setError(err instanceof Error && err.message ? err.message : 'Your card could not be saved. Try another card.');
      setSaving(false);
    }
  };

  const formProps: CardFormProps | null = intent.data
    ? {
        clientSecret: intent.data.client_secret,
        publishableKey: intent.data.publishable_key,
        confirmRef: confirm,
        onCompleteChange: setComplete,
        disabled: saving,
      }
    : null;
  const loading = (
    <Center py="lg">
      <Loader size="sm" aria-label="Loading the card form" />
    </Center>
  );

  return (
    <form onSubmit={(e) => void save(e)} noValidate>
      {intent.isPending ? (
        loading
      ) : !formProps ? (
        <Text>We couldn't open the card form. Close this window and try again.</Text>
      ) : intent.data?.provider === 'stripe' ? (
        <Suspense fallback={loading}>
          <StripeCardForm {...formProps} />
        </Suspense>
      ) : (
        <SandboxCardForm {...formProps} />
      )}
      {error && (
        <Text role="alert" c="red.9" size="sm" mt="sm">
          {error}
        </Text>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={!complete || saving} loading={saving}>
          Save
        </Button>
      </Group>
    </form>
  );
}
