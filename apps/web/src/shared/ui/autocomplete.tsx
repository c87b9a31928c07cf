import { TextInput, type TextInputProps } from '@mantine/core';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import classes from './autocomplete.module.css';

export interface AutocompleteProps<T> extends Omit<TextInputProps, 'children' | 'label' | 'onKeyDown'> {
  label: string;
  /** Whether the list is open: the caller opens it (focus, typing) and closes it (a pick, leaving the field). */
  opened: boolean;
  onOpenedChange(opened: boolean): void;
  options: readonly T[];
  /** A key unique in `options`, which keeps the highlight on its option while the list changes. */
  optionKey(option: T): string;
  renderOption(option: T): ReactNode;
  onPick(option: T): void;
  /** The option already chosen: the arrow keys start from it when they open the list. */
  currentKey?: string | null;
  /** Shown in the list when there are no options; without it an empty list is not shown at all. */
  empty?: ReactNode;
  /** The list's height before it scrolls, in pixels. */
  maxHeight?: number;
}

/**
 * A text field with a list of suggestions under it (the WAI-ARIA 1.2 combobox pattern, the list
 * filtered by the caller). ArrowDown and ArrowUp move the highlight (opening the list on the
 * current option or the first), Enter picks the highlighted option and Escape closes the list; a
 * click picks one without taking the focus from the field.
 */
export function Autocomplete<T>({
  label,
  opened,
  onOpenedChange,
  options,
  optionKey,
  renderOption,
  onPick,
  currentKey = null,
  empty,
  maxHeight = 320,
  ...inputProps
}: AutocompleteProps<T>) {
  const id = useId();
  const labelId = `${id}-label`;
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const list = useRef<HTMLDivElement>(null);
  // The highlighted option's key: it stays on that option while the list around it changes, and
  // goes when it leaves the list or the list closes.
  const [highlighted, setHighlighted] = useState<string | null>(null);
  if (!opened && highlighted !== null) setHighlighted(null);
  const index = highlighted === null ? -1 : options.findIndex((o) => optionKey(o) === highlighted);
  const shown = opened && (options.length > 0 || empty !== undefined);

  useEffect(() => {
    if (index !== -1) list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [index]);

  const highlight = (at: number) => {
    const option = options[(at + options.length) % options.length];
    if (option !== undefined) setHighlighted(optionKey(option));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Keys that finish an input method's composition are the composition's, not the list's.
    if (event.nativeEvent.isComposing) return;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        const down = event.key === 'ArrowDown';
        if (!opened) {
          onOpenedChange(true);
          const current = options.findIndex((o) => optionKey(o) === currentKey);
          highlight(current === -1 ? 0 : current);
        } else highlight(index === -1 ? (down ? 0 : -1) : index + (down ? 1 : -1));
        return;
      }
      case 'Enter': {
        // With nothing highlighted, Enter does what it does in the form (a search bar submits).
        const option = options[index];
        if (!opened || option === undefined) return;
        event.preventDefault();
        onPick(option);
        return;
      }
      case 'Escape':
        if (opened) onOpenedChange(false);
    }
  };

  return (
    <TextInput
      {...inputProps}
      label={label}
      labelProps={{ id: labelId }}
      role="combobox"
      aria-autocomplete="list"
      aria-expanded={shown}
      aria-controls={listId}
      aria-activedescendant={shown && index !== -1 ? optionId(index) : undefined}
      // Mantine's dialogs close on Escape unless the focused element carries this: in one (the
      // phone's search), Escape closes the open list and leaves the dialog.
      data-mantine-stop-propagation={shown ? 'true' : undefined}
      onKeyDown={onKeyDown}
      inputContainer={(input) => (
        <div className={classes.anchor}>
          {input}
          {/* A press in the list leaves the focus in the field, so choosing is not leaving it. */}
          <div role="presentation" className={classes.dropdown} hidden={!shown} onMouseDown={(e) => e.preventDefault()}>
            <div
              id={listId}
              role="listbox"
              aria-labelledby={labelId}
              ref={list}
              className={classes.list}
              style={{ maxHeight }}
            >
              {shown &&
                options.map((option, i) => (
                  // The keyboard reaches the options through the field (aria-activedescendant), so
                  // they take no focus and no keys of their own.
                  // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus
                  <div
                    key={optionKey(option)}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === index}
                    className={classes.option}
                    onClick={() => onPick(option)}
                  >
                    {renderOption(option)}
                  </div>
                ))}
            </div>
            {shown && options.length === 0 && <div className={classes.empty}>{empty}</div>}
          </div>
        </div>
      )}
    />
  );
}
