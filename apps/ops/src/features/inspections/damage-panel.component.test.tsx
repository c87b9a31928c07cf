// The matchers' types (the component project's setup installs them at run time).
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DamageMark, InspectionResult } from '@ampere/domain/contract/ops-inspections';
import { DamagePanel } from './damage-panel.tsx';

const mark: DamageMark = {
  id: '2b1c6a9e-7d6f-4f57-9a55-3c1e0f1d2a10',
  x: 0.15,
  y: 0.1,
  view: 'LF_CORNER',
  severity: 'minor',
  note: 'Scuff on the front left bumper',
  createdAt: '2099-01-10T15:00:00.000Z',
  closeups: [],
};

function draw(canRecord = true) {
  const fetchMock = vi.fn((_url: string, init: RequestInit) => {
    const body = JSON.parse(init.body as string) as Omit<DamageMark, 'id' | 'createdAt' | 'closeups'>;
    const result = {
      inspection: { damage: [mark, { ...body, id: 'new-mark', createdAt: mark.createdAt, closeups: [] }] },
    } as unknown as InspectionResult;
    return Promise.resolve(new Response(JSON.stringify(result), { status: 201 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  const onChanged = vi.fn();
  render(
    <MantineProvider>
      <DamagePanel
        tripId="AMP-TEST-0001"
        stage="check_out"
        marks={[mark]}
        zone="America/Chicago"
        canRecord={canRecord}
        onChanged={onChanged}
      />
    </MantineProvider>,
  );
  return { fetchMock, onChanged };
}

describe('marking damage on the drawing of the car (decision 089)', () => {
  it('works from the keyboard alone: arrows move the marker, Enter opens the mark there with its view suggested', async () => {
    const user = userEvent.setup();
    const { fetchMock, onChanged } = draw();
    const drawing = screen.getByRole('button', { name: /^Mark damage on the drawing/ });
    expect(drawing).toHaveAccessibleName(/now 50% across and 50% down/);
    await user.tab();
    expect(drawing).toHaveFocus();
    for (let i = 0; i < 16; i++) await user.keyboard('{ArrowLeft}');
    expect(drawing).toHaveAccessibleName(/now 10% across and 50% down/);
    await user.keyboard('{Enter}');

    const form = screen.getByRole('form', { name: 'New damage mark' });
    expect(within(form).getByLabelText('Seen in')).toHaveValue('L_SIDE');
    await user.selectOptions(within(form).getByLabelText('How bad'), 'moderate');
    expect(within(form).getByRole('button', { name: 'Save mark' })).toBeDisabled();
    await user.type(within(form).getByLabelText(/What is it/), 'Dent in the left rear door');
    await user.click(within(form).getByRole('button', { name: 'Save mark' }));

    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/ops/v1/trips/AMP-TEST-0001/inspections/check_out/damage');
    expect(JSON.parse(init.body as string)).toEqual({
      x: 0.1,
      y: 0.5,
      view: 'L_SIDE',
      severity: 'moderate',
      note: 'Dent in the left rear door',
    });
    expect(onChanged).toHaveBeenCalledOnce();
    expect(screen.queryByRole('form', { name: 'New damage mark' })).not.toBeInTheDocument();
  });

  it('lists the marks with their view and severity, and offers no drawing to a role that cannot record', () => {
    draw(false);
    expect(screen.queryByRole('button', { name: /^Mark damage/ })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Damage (1)' })).toBeVisible();
    expect(screen.getByText('Front left corner · Minor (scratch, scuff)')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
  });
});
