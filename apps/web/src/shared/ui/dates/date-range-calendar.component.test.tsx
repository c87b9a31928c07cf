import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { DateRange, Trip } from '@ampere/domain/dates';
import { findDialog, renderWidget } from '../../../test/render.tsx';
import { ChangeDatesModal } from './change-dates-modal.tsx';
import { DateRangeCalendar } from './date-range-calendar.tsx';
import { TimeSelect } from './time-select.tsx';

/** The calendar's "today" is given to it: a Monday, 10 March 2031, whatever day the tests run. */
const TODAY = '2031-03-10';

function Calendar({ initial = { start: null, end: null } }: { initial?: DateRange }) {
  const [range, setRange] = useState<DateRange>(initial);
  return <DateRangeCalendar value={range} onChange={setRange} today={TODAY} />;
}

/** A day's button, by the start of its spoken name ('Wednesday, March 12, 2031'). */
const day = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });
const hint = () => screen.getByText(/^Choose your (pickup|return) date$/);

describe('the date range calendar', () => {
  it('picks a range: the first day is the pickup, a later one the return, the days between in it', async () => {
    const { user } = await renderWidget(<Calendar />);
    expect(hint()).toHaveTextContent('Choose your pickup date');
    expect(screen.getByRole('grid', { name: 'March 2031' })).toBeVisible();
    expect(screen.getByRole('grid', { name: 'April 2031' })).toBeVisible();

    await user.click(day('Wednesday, March 12, 2031'));
    expect(day('Wednesday, March 12, 2031')).toHaveAccessibleName(/^Wednesday, March 12, 2031, pickup/);
    expect(hint()).toHaveTextContent('Choose your return date');
    expect(
      screen.getByText('A trip can be up to 28 days long, so only dates within 28 days of the pickup can be chosen.'),
    ).toBeVisible();

    await user.click(day('Saturday, March 15, 2031'));
    expect(day('Saturday, March 15, 2031')).toHaveAccessibleName('Saturday, March 15, 2031, return');
    const selected = (name: string) => day(name).closest('td')!.getAttribute('aria-selected');
    expect(['Thursday, March 13', 'Friday, March 14', 'Sunday, March 16'].map(selected)).toEqual([
      'true',
      'true',
      'false',
    ]);
    expect(hint()).toHaveTextContent('Choose your pickup date');
  });

  it('a day clicked on a complete range starts a new one; a day before the pickup becomes the pickup', async () => {
    const { user } = await renderWidget(<Calendar initial={{ start: '2031-03-12', end: '2031-03-15' }} />);
    await user.click(day('Thursday, March 20, 2031'));
    expect(day('Thursday, March 20, 2031')).toHaveAccessibleName(/^Thursday, March 20, 2031, pickup/);
    expect(day('Saturday, March 15, 2031')).toHaveAccessibleName('Saturday, March 15, 2031');

    await user.click(day('Tuesday, March 18, 2031'));
    expect(day('Tuesday, March 18, 2031')).toHaveAccessibleName(/^Tuesday, March 18, 2031, pickup/);
    expect(day('Thursday, March 20, 2031')).toHaveAccessibleName('Thursday, March 20, 2031');
    expect(hint()).toHaveTextContent('Choose your return date');
  });

  it('days before today are disabled and say why; clicking one picks nothing, and no earlier month opens', async () => {
    const { user } = await renderWidget(<Calendar />);
    const yesterday = day('Sunday, March 9, 2031');
    expect(yesterday).toHaveAccessibleName('Sunday, March 9, 2031, unavailable: in the past');
    expect(yesterday).toHaveAttribute('aria-disabled', 'true');
    expect(day('Monday, March 10, 2031')).not.toHaveAttribute('aria-disabled');
    await user.click(yesterday);
    expect(hint()).toHaveTextContent('Choose your pickup date');
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeDisabled();
  });

  it('days more than 365 days ahead are disabled', async () => {
    // Opened on a trip in February 2032: February and March show.
    const { user } = await renderWidget(<Calendar initial={{ start: '2032-02-20', end: '2032-02-22' }} />);
    expect(screen.getByRole('grid', { name: 'March 2032' })).toBeVisible();
    expect(day('Tuesday, March 9, 2032')).toHaveAccessibleName('Tuesday, March 9, 2032');
    expect(day('Wednesday, March 10, 2032')).toHaveAccessibleName(
      'Wednesday, March 10, 2032, unavailable: more than a year ahead',
    );
    await user.click(day('Wednesday, March 10, 2032'));
    expect(day('Friday, February 20, 2032')).toHaveAccessibleName('Friday, February 20, 2032, pickup');
    await user.click(day('Tuesday, March 9, 2032'));
    expect(day('Tuesday, March 9, 2032')).toHaveAccessibleName(/^Tuesday, March 9, 2032, pickup/);
  });

  it('once a pickup is chosen, the return can be no more than 28 days after it, nor the same day', async () => {
    const { user } = await renderWidget(<Calendar />);
    await user.click(day('Wednesday, March 12, 2031'));
    expect(day('Wednesday, March 12, 2031')).toHaveAccessibleName(
      'Wednesday, March 12, 2031, pickup, unavailable: return must be at least one day after pickup',
    );
    expect(day('Wednesday, April 9, 2031')).toHaveAccessibleName('Wednesday, April 9, 2031');
    expect(day('Thursday, April 10, 2031')).toHaveAccessibleName(
      'Thursday, April 10, 2031, unavailable: more than 28 days from pickup',
    );
    await user.click(day('Thursday, April 10, 2031'));
    expect(hint()).toHaveTextContent('Choose your return date');
    await user.click(day('Wednesday, April 9, 2031'));
    expect(day('Wednesday, April 9, 2031')).toHaveAccessibleName('Wednesday, April 9, 2031, return');
  });

  it('works from the keyboard: arrows move by day and week, Enter and Space pick', async () => {
    const { user } = await renderWidget(<Calendar />);
    // Past 'Next month' ('Previous month' is disabled on today's month), to the day that holds the focus: today.
    await user.tab();
    await user.tab();
    expect(day('Monday, March 10, 2031')).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(day('Tuesday, March 18, 2031')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(day('Tuesday, March 18, 2031')).toHaveAccessibleName(/^Tuesday, March 18, 2031, pickup/);
    await user.keyboard('{ArrowRight}{ArrowRight}[Space]');
    expect(day('Thursday, March 20, 2031')).toHaveAccessibleName('Thursday, March 20, 2031, return');
    await user.keyboard('{PageDown}');
    expect(day('Sunday, April 20, 2031')).toHaveFocus();
  });
});

function Times({ date, isBooked }: { date: string; isBooked?: (t: string) => boolean }) {
  const [time, setTime] = useState('16:00');
  return (
    <TimeSelect
      label="Pickup time"
      value={time}
      onChange={setTime}
      date={date}
      earliest={{ date: TODAY, time: '14:00' }}
      isBooked={isBooked}
    />
  );
}

describe('the time select', () => {
  it('on the earliest day, times before the earliest are disabled, and booked times are marked and disabled', async () => {
    const { user } = await renderWidget(<Times date={TODAY} isBooked={(t) => t === '18:00'} />);
    const select = screen.getByRole('combobox', { name: 'Pickup time' });
    const option = (name: string) => within(select).getByRole('option', { name });
    expect(within(select).getAllByRole('option')).toHaveLength(96);
    expect(option('1:45 PM')).toBeDisabled();
    expect(option('2:00 PM')).toBeEnabled();
    expect(option('6:00 PM (booked)')).toBeDisabled();
    await user.selectOptions(select, '2:30 PM');
    expect(select).toHaveValue('14:30');
  });

  it('on a later day every time can be chosen', async () => {
    await renderWidget(<Times date="2031-03-11" />);
    const select = screen.getByRole('combobox', { name: 'Pickup time' });
    expect(within(select).getByRole('option', { name: '12:00 AM' })).toBeEnabled();
    expect(
      within(select)
        .getAllByRole('option')
        .filter((o) => (o as HTMLOptionElement).disabled),
    ).toHaveLength(0);
  });
});

describe("the 'Change Dates' dialog", () => {
  function Dialog({ initial, onApply }: { initial: Trip; onApply(trip: Trip): void }) {
    return (
      <ChangeDatesModal opened onClose={() => {}} initial={initial} timeZone="America/Chicago" onApply={onApply} />
    );
  }

  it("reads today and the earliest pickup from the clock: a pickup today moves to the first time past the place's notice", async () => {
    // 11:30 AM in Nashville: the earliest pickup is 4:00 PM (the hour, plus 4 hours' notice, plus 1).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-03-10T16:30:00Z') });
    const applied = vi.fn();
    const initial: Trip = {
      pickupDate: '2031-03-12',
      pickupTime: '10:00',
      returnDate: '2031-03-15',
      returnTime: '10:00',
    };
    const { user } = await renderWidget(<Dialog initial={initial} onApply={applied} />);
    const dialog = await findDialog('Change Dates');

    expect(day('Wednesday, March 12, 2031')).toHaveAccessibleName(/^Wednesday, March 12, 2031, pickup/);
    expect(day('Sunday, March 9, 2031')).toHaveAccessibleName('Sunday, March 9, 2031, unavailable: in the past');
    await user.click(day('Monday, March 10, 2031'));
    await user.click(day('Thursday, March 13, 2031'));
    expect(dialog).toHaveTextContent('Pickup03/10/2031');
    expect(dialog).toHaveTextContent('Return03/13/2031');
    const pickupTime = within(dialog).getByRole('combobox', { name: 'Pickup time' });
    expect(within(pickupTime).getByRole('option', { name: '3:45 PM' })).toBeDisabled();
    expect(within(pickupTime).getByRole('option', { name: '4:00 PM' })).toBeEnabled();

    await user.click(within(dialog).getByRole('button', { name: 'Apply Dates' }));
    expect(applied).toHaveBeenCalledWith({
      pickupDate: '2031-03-10',
      pickupTime: '16:00',
      returnDate: '2031-03-13',
      returnTime: '10:00',
    });
  });

  it('Apply Dates waits for a return', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-03-10T16:30:00Z') });
    const initial: Trip = {
      pickupDate: '2031-03-12',
      pickupTime: '10:00',
      returnDate: '2031-03-15',
      returnTime: '10:00',
    };
    const { user } = await renderWidget(<Dialog initial={initial} onApply={() => {}} />);
    const dialog = await findDialog('Change Dates');
    await user.click(day('Thursday, March 20, 2031'));
    expect(dialog).toHaveTextContent('ReturnChoose a date');
    expect(within(dialog).getByRole('button', { name: 'Apply Dates' })).toBeDisabled();
  });
});
