import { Alert, Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  REASON_MAX_LENGTH,
  type ReviewDecision,
  type ReviewReason,
  type ReviewSubject,
  reasonRequired,
} from '@ampere/domain/renter-review';
import { ApiError, errorText } from '../../shared/api.ts';
import { renterKeys, reviewCheck } from './renters-api.ts';
import { statusWords } from './words.ts';

export interface CheckToReview {
  subject: ReviewSubject;
  checkId: string;
  why: ReviewReason;
  renterName: string;
  providerStatus: string;
}

const SUBJECT_WORDS: Record<ReviewSubject, string> = { license: 'license check', insurance: 'insurance connection' };

/** The decisions offered for a check: approving is for a flagged one, a failed one is overridden. */
function choicesFor(why: ReviewReason): { value: ReviewDecision; label: string; description: string }[] {
  const pass =
    why === 'flagged'
      ? {
          value: 'approve' as const,
          label: 'Approve',
          description: 'You looked at it and it is fine: the renter is verified.',
        }
      : {
          value: 'override' as const,
          label: 'Override',
          description: 'Let the renter through anyway, for a reason the audit log keeps.',
        };
  return [
    pass,
    {
      value: 'uphold',
      label: 'Uphold',
      description: 'The provider’s result stands: the renter verifies again.',
    },
  ];
}

/**
 * A staff decision on a check that did not pass (decision 094): approve a flagged one, override a
 * failed one (a reason is required), or uphold it. The server's refusal is shown on its field.
 */
export function ReviewDialog({
  check,
  onClose,
  onDone,
}: {
  check: CheckToReview | null;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const choices = check ? choicesFor(check.why) : [];
  const [decision, setDecision] = useState<ReviewDecision | null>(null);
  const [reason, setReason] = useState('');
  const chosen = decision ?? choices[0]?.value ?? 'uphold';
  const decide = useMutation({
    mutationFn: () => reviewCheck(check!.subject, check!.checkId, { decision: chosen, reason: reason.trim() || null }),
    onSuccess: async (review) => {
      await queryClient.invalidateQueries({ queryKey: renterKeys.all });
      const words = { approve: 'approved', override: 'overridden', uphold: 'upheld' }[review.decision];
      onDone(`The ${SUBJECT_WORDS[review.subject]} of ${check!.renterName} is ${words}.`);
      close();
    },
  });
  const close = () => {
    setDecision(null);
    setReason('');
    decide.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    decide.mutate();
  };
  const error = decide.error;
  const reasonError = error instanceof ApiError && error.field === 'reason' ? error.message : null;
  return (
    <Modal opened={check !== null} onClose={close} title={check ? `Review the ${SUBJECT_WORDS[check.subject]}` : ''}>
      {check && (
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">
              {check.renterName} · the provider said <strong>{statusWords(check.providerStatus)}</strong>
              {check.why === 'flagged' ? ' (flagged for a closer look).' : '.'}
            </Text>
            <Radio.Group label="Decision" value={chosen} onChange={(v) => setDecision(v as ReviewDecision)}>
              <Stack gap="xs" mt="xs">
                {choices.map((c) => (
                  <Radio key={c.value} value={c.value} label={c.label} description={c.description} />
                ))}
              </Stack>
            </Radio.Group>
            <Textarea
              label="Reason"
              description={reasonRequired(chosen) ? 'Required: it is kept in the audit log.' : 'Optional.'}
              required={reasonRequired(chosen)}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              maxLength={REASON_MAX_LENGTH}
              autosize
              minRows={2}
              error={reasonError}
            />
            {error && !reasonError && (
              <Alert color="red" role="alert">
                {errorText(error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={decide.isPending}>
                {choices.find((c) => c.value === chosen)?.label ?? 'Save'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
