// The matchers' types (the component project's setup installs them at run time).
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type CheckToReview, ReviewDialog } from './review-dialog.tsx';

/** The review dialog (decision 094) as the desk uses it, the API answered by `answer`. */
type Sent = { decision: string; reason: string | null };

function draw(check: CheckToReview, answer: (body: Sent) => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as Sent;
      sent.push(body);
      return Promise.resolve(answer(body));
    }),
  );
  const onDone = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <ReviewDialog check={check} onClose={() => {}} onDone={onDone} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { sent, onDone, dialog: screen.getByRole('dialog') };
}

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const review = (decision: string, reason: string | null) => ({
  id: 'r1',
  subject: 'license',
  checkId: 'c1',
  providerStatus: 'declined',
  decision,
  reason,
  decidedAt: '2026-11-27T12:00:00.000Z',
  decidedBy: 'Dora Desk',
});

describe('reviewing a check', () => {
  it('offers Approve for a flagged check, with no reason needed', async () => {
    const { sent, onDone, dialog } = draw(
      {
        subject: 'license',
        checkId: 'c1',
        why: 'flagged',
        renterName: 'Ana Ruiz',
        providerStatus: 'resubmission_requested',
      },
      () => json(200, review('approve', null)),
    );
    expect(within(dialog).getByText('Resubmission requested')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /^Approve/ })).toBeChecked();
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).not.toBeRequired();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith('The license check of Ana Ruiz is approved.'));
    expect(sent).toEqual([{ decision: 'approve', reason: null }]);
  });

  it('offers Override for a failed check, asks for a reason, and shows the server’s refusal on it', async () => {
    const { sent, onDone, dialog } = draw(
      {
        subject: 'insurance',
        checkId: 'c2',
        why: 'failed',
        renterName: 'Ana Ruiz',
        providerStatus: 'ACCOUNT_DISABLED',
      },
      (body) =>
        (body.reason ?? '').length < 5
          ? json(422, {
              code: 'UNPROCESSABLE',
              message: 'Write at least 5 characters for the reason.',
              field: 'reason',
            })
          : json(200, { ...review('override', body.reason), subject: 'insurance' }),
    );
    expect(within(dialog).queryByRole('radio', { name: /^Approve/ })).toBeNull();
    const reason = within(dialog).getByRole('textbox', { name: /^Reason/ });
    expect(reason).toBeRequired();
    await userEvent.type(reason, 'ok');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Override' }));
    expect(await within(dialog).findByText('Write at least 5 characters for the reason.')).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
    await userEvent.type(reason, ' — policy card checked by phone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Override' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith('The insurance connection of Ana Ruiz is overridden.'));
    expect(sent.at(-1)).toEqual({ decision: 'override', reason: 'ok — policy card checked by phone' });
  });
});
