import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PhoneNumber } from './phone-number.tsx';

describe('a phone number shown to the renter', () => {
  it('a North American number is written at once as its people write it', () => {
    render(
      <p data-testid="phone">
        <PhoneNumber e164="+16155550123" />
      </p>,
    );
    expect(screen.getByTestId('phone')).toHaveTextContent('(615) 555-0123');
  });

  it('a number from elsewhere shows as sent, then in international form once the phone library loads', async () => {
    render(
      <p data-testid="phone">
        <PhoneNumber e164="+442079460958" />
      </p>,
    );
    expect(await screen.findByText('+44 20 7946 0958')).toBeInTheDocument();
  });
});
