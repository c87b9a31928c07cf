import { Button, type ButtonProps } from '@mantine/core';
import {
  type ComponentProps,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  createContext,
  use,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link } from '../router/react.tsx';
import classes from './menu-button.module.css';

/** Where the focus goes once the menu has opened (it can only move once the list is shown). */
type FocusOnOpen = 'first' | 'last' | 'menu';

/** What an item needs from its menu: to close it once chosen, handing the focus back to the button. */
const MenuContext = createContext<{ choose(): void } | null>(null);

// Mantine's dialogs and drawers close on Escape unless the focused element carries this: inside
// one (the navbar's drawer), Escape closes the open list and leaves the drawer.
const stopMantineEscape = { 'data-mantine-stop-propagation': 'true' };

const itemsOf = (menu: HTMLElement | null) =>
  menu ? Array.from(menu.querySelectorAll<HTMLElement>('[role="menuitem"]')) : [];

function focusIn(menu: HTMLElement | null, focus: FocusOnOpen) {
  const items = itemsOf(menu);
  (focus === 'first' ? items[0] : focus === 'last' ? items.at(-1) : menu)?.focus();
}

/**
 * A button that opens a list of actions or links below it, its right edge on the button's (the
 * WAI-ARIA menu button pattern). The keyboard opens it on the first item (Enter, Space, ArrowDown)
 * or the last (ArrowUp); the arrows, Home and End move through it, Escape closes it back onto the
 * button, and Tab or a press anywhere else closes it. Its items are `MenuItem`s and `MenuLink`s.
 */
export function MenuButton({
  label,
  children,
  ...buttonProps
}: { label: ReactNode; children: ReactNode } & Omit<ButtonProps, 'children'>) {
  const [open, setOpen] = useState(false);
  const focusOnOpen = useRef<FocusOnOpen | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;

  const show = (focus: FocusOnOpen) => {
    if (open) return focusIn(menu.current, focus);
    focusOnOpen.current = focus;
    setOpen(true);
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  // The list is hidden until the render that opens it is on screen, so the focus moves after it.
  useEffect(() => {
    const focus = focusOnOpen.current;
    focusOnOpen.current = null;
    if (open && focus) focusIn(menu.current, focus);
  }, [open]);

  // A press outside the button and its list closes it, leaving the focus where the press put it.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onButtonClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (open) close(false);
    // A click the keyboard made (Enter or Space: no pointer, so no click count) starts on the first
    // item; a pointer's leaves the focus on the list itself, no item looking chosen before one is.
    else show(event.detail === 0 ? 'first' : 'menu');
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    show(event.key === 'ArrowDown' ? 'first' : 'last');
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = itemsOf(menu.current);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focus = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return focus(at + 1);
      case 'ArrowUp':
        // From the list itself (no item focused yet), up goes to the last item.
        return focus(at === -1 ? -1 : at - 1);
      case 'Home':
        return focus(0);
      case 'End':
        return focus(-1);
      case 'Escape':
        event.preventDefault();
        return close(true);
      case ' ':
        // Space chooses an item as Enter does; a link does not answer Space by itself.
        if (items[at] instanceof HTMLAnchorElement) {
          event.preventDefault();
          items[at].click();
        }
        return;
      case 'Tab':
        // The focus moves on as Tab would take it from the button: the items are not in the tab order.
        return close(false);
    }
  };

  return (
    <div ref={root} className={classes.root}>
      <Button
        {...buttonProps}
        ref={button}
        id={buttonId}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={onButtonClick}
        onKeyDown={onButtonKeyDown}
      >
        {label}
      </Button>
      <div
        ref={menu}
        id={menuId}
        role="menu"
        aria-labelledby={buttonId}
        tabIndex={-1}
        hidden={!open}
        className={classes.menu}
        onKeyDown={onMenuKeyDown}
        {...stopMantineEscape}
      >
        <MenuContext value={{ choose: () => close(true) }}>{children}</MenuContext>
      </div>
    </div>
  );
}

/** Closes the menu after the item's own handler, as choosing an item does. */
function useChoose<E>(onClick: ((event: E) => void) | undefined) {
  const menu = use(MenuContext);
  return (event: E) => {
    onClick?.(event);
    menu?.choose();
  };
}

/** An action in a `MenuButton`'s list. */
export function MenuItem({ onClick, ...props }: Omit<ComponentProps<'button'>, 'type' | 'role' | 'tabIndex'>) {
  const choose = useChoose(onClick);
  return (
    <button
      {...props}
      {...stopMantineEscape}
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={classes.item}
      onClick={choose}
    />
  );
}

/** A page in a `MenuButton`'s list: a router link, followed on Enter like any link. */
export function MenuLink({ onClick, ...props }: Omit<ComponentProps<typeof Link>, 'role' | 'tabIndex'>) {
  const choose = useChoose(onClick);
  return (
    <Link {...props} {...stopMantineEscape} role="menuitem" tabIndex={-1} className={classes.item} onClick={choose} />
  );
}
