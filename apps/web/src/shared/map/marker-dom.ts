/** DOM for the price pins and their popups; MapLibre positions these elements over the map. */
import type { MapMarker } from './types.ts';

export const PIN_CLASS = 'ampere-map-pin';
export const PIN_ACTIVE_CLASS = 'is-active';

/** What a pin is called by assistive technology: the car and its price. */
export function pinName(m: MapMarker): string {
  return m.priceLabel ? `${m.title}, ${m.priceLabel}` : m.title;
}

/** A button per pin: it is focusable, and Enter or a click opens the popup. */
export function createPin(m: MapMarker): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = PIN_CLASS;
  updatePin(el, m);
  return el;
}

export function updatePin(el: HTMLButtonElement, m: MapMarker): void {
  el.setAttribute('aria-label', pinName(m));
  el.dataset.markerId = m.id;
  el.replaceChildren();
  if (m.color) {
    const swatch = document.createElement('span');
    swatch.className = 'ampere-map-pin__swatch';
    swatch.setAttribute('aria-hidden', 'true');
    swatch.style.background = m.color.toLowerCase();
    el.append(swatch);
  }
  const label = document.createElement('span');
  label.textContent = m.priceLabel ?? m.title;
  el.append(label);
}

export const CLUSTER_CLASS = 'ampere-map-cluster';

/** A numbered button for cars grouped at this zoom; a click zooms in to split the group. */
export function createClusterButton(count: number): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = CLUSTER_CLASS;
  updateClusterButton(el, count);
  return el;
}

export function updateClusterButton(el: HTMLButtonElement, count: number): void {
  el.textContent = String(count);
  el.setAttribute('aria-label', `${count} cars here, zoom in to see them`);
  // Bigger groups get a bigger button, within reason.
  el.style.setProperty('--size', `${Math.min(52, 32 + Math.round(Math.log2(Math.max(2, count)) * 4))}px`);
}

/** Popup body: model name, the prices line and a link to the car. */
export function createPopupContent(m: MapMarker): HTMLElement {
  const root = document.createElement('div');
  root.className = 'ampere-map-popup';
  const title = document.createElement('p');
  title.className = 'ampere-map-popup__title';
  title.textContent = m.title;
  root.append(title);
  if (m.description) {
    const description = document.createElement('p');
    description.className = 'ampere-map-popup__description';
    description.textContent = m.description;
    root.append(description);
  }
  if (m.href) {
    const link = document.createElement('a');
    link.className = 'ampere-map-popup__link';
    link.href = m.href;
    link.textContent = 'View car';
    link.setAttribute('aria-label', `View ${m.title}`);
    root.append(link);
  }
  return root;
}

/** A plain left click, which the single-page router may take over; modified clicks open new tabs. */
export function isPlainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented;
}
