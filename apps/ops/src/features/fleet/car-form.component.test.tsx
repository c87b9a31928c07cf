// The matchers' types (the component project's setup installs them at run time).
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api.ts';
import { CarForm, EMPTY_CAR, carValues } from './car-form.tsx';

/** The add and edit form: the catalog and locations from the API, a refusal beside its field. */

const catalog = { models: [{ id: 1, name: 'Model 3' }], colours: ['BLACK', 'RED'], holdReasons: [], csvColumns: [] };
const locations = {
  locations: [{ id: '3', name: 'Dallas Uptown Garage', timezone: 'America/Chicago' }],
};

function draw(error: unknown, onSubmit = vi.fn()) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        new Response(JSON.stringify(url.endsWith('/fleet/catalog') ? catalog : locations), {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    ),
  );
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <CarForm
          initial={EMPTY_CAR}
          withVin
          submitLabel="Add the car"
          pending={false}
          error={error}
          onSubmit={onSubmit}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { onSubmit, user: userEvent.setup({ delay: null }) };
}

describe('the car form', () => {
  it('shows a refusal naming a field under that field, not above the buttons', () => {
    const message = "The VIN's check digit (9th character) should be 4, not 1: a character is probably mistyped.";
    draw(new ApiError(422, message, 'UNPROCESSABLE', 'vin'));
    const vin = screen.getByLabelText(/^VIN/);
    expect(vin).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a refusal without a field above the buttons', () => {
    draw(new ApiError(409, 'The fleet already has a car with VIN X.', 'CONFLICT', null));
    expect(screen.getByRole('alert')).toHaveTextContent('The fleet already has a car with VIN X.');
  });

  it('asks for what is missing before sending, and sends numbers as typed', async () => {
    const { onSubmit, user } = draw(null);
    await user.click(screen.getByRole('button', { name: 'Add the car' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/^VIN/)).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText(/^VIN/), '5yj3e1ea1sf100067');
    await user.type(screen.getByLabelText(/^Model year/), '2025');
    await user.selectOptions(await screen.findByRole('combobox', { name: /^Model/ }), 'Model 3');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Colour/ }), 'RED');
    await user.selectOptions(await screen.findByRole('combobox', { name: /^Location/ }), '3');
    await user.type(screen.getByLabelText(/^Daily rate/), '8900');
    expect(screen.getByText('$89.00 a day')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add the car' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({
        vin: '5YJ3E1EA1SF100067',
        year: '2025',
        model: 'Model 3',
        colour: 'RED',
        locationId: '3',
        dailyRateCents: '8900',
        plate: '',
      }),
    );
  });

  it('takes an optional plate, and shows a clash with another car under it', async () => {
    const { onSubmit, user } = draw(
      new ApiError(409, 'The car 5YJ3E1EA1SF100067 already has plate 8ABC123.', 'CONFLICT', 'licensePlate'),
    );
    const plate = screen.getByLabelText(/^License plate/);
    expect(plate).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('The car 5YJ3E1EA1SF100067 already has plate 8ABC123.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(plate, '8abc 124');
    expect(plate).toHaveValue('8ABC 124');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends a blank plate as none and a typed one as typed (the server normalises it)', () => {
    expect(carValues({ ...EMPTY_CAR, plate: '   ' }).licensePlate).toBeNull();
    expect(carValues({ ...EMPTY_CAR, plate: ' 8ABC 123 ' }).licensePlate).toBe('8ABC 123');
  });
});
