import type { ReactNode } from 'react';
import classes from './booking.module.css';

/**
 * A group of radio buttons with a legend: native inputs (so the booking pages add no Mantine
 * component to the framework chunk every page downloads), styled as bordered choices.
 */
export function ChoiceGroup<T extends string>(props: {
  legend: string;
  name: string;
  value: T | null;
  options: { value: T; label: ReactNode }[];
  onChange(value: T): void;
  row?: boolean;
  disabled?: boolean;
}) {
  return (
    <fieldset className={classes.choices} disabled={props.disabled}>
      <legend>
        {props.legend}{' '}
        <span className={classes.required} aria-hidden="true">
          *
        </span>
      </legend>
      <div className={props.row ? classes.choiceRow : classes.choiceList}>
        {props.options.map((o) => (
          <label key={o.value} className={classes.choice}>
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={props.value === o.value}
              onChange={() => props.onChange(o.value)}
              required
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
