/** DOM for the price pins and their popups; MapLibre positions these elements over the map. */
import type { MapMarker, MapPlace } from './types.ts';

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

/** A popup's line of text. */
function paragraph(className: string, text: string): HTMLParagraphElement {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

/** Popup body: model name, the prices line and a link to the car. */
export function createPopupContent(m: MapMarker): HTMLElement {
  const root = document.createElement('div');
  root.className = 'ampere-map-popup';
  root.append(paragraph('ampere-map-popup__title', m.title));
  if (m.description) root.append(paragraph('ampere-map-popup__description', m.description));
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

export const LOT_CLASS = 'ampere-map-lot';

/** A lot's pin when several cars stand there: '12 cars · from $258.00'; a click lists them. */
export function createLotPin(place: MapPlace, cars: readonly MapMarker[]): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = `${PIN_CLASS} ${LOT_CLASS}`;
  updateLotPin(el, place, cars);
  return el;
}

export function lotPinText(cars: readonly MapMarker[]): string {
  const cheapest = cars.reduce<MapMarker | undefined>(
    (best, m) =>
      m.priceCents !== undefined && (best?.priceCents === undefined || m.priceCents < best.priceCents) ? m : best,
    undefined,
  );
  return cheapest?.priceLabel ? `${cars.length} cars · from ${cheapest.priceLabel}` : `${cars.length} cars`;
}

export function updateLotPin(el: HTMLButtonElement, place: MapPlace, cars: readonly MapMarker[]): void {
  const text = lotPinText(cars);
  // The name starts with the words on the pin (WCAG 2.5.3), then says where.
  el.setAttribute('aria-label', `${text} at ${place.name}`);
  el.dataset.lotId = place.id;
  el.textContent = text;
}

/** A lot's popup: its name and street, then each car with its prices, as links. */
export function createLotPopupContent(place: MapPlace, cars: readonly MapMarker[]): HTMLElement {
  const root = document.createElement('div');
  root.className = 'ampere-map-popup';
  root.append(paragraph('ampere-map-popup__title', place.name));
  if (place.street) root.append(paragraph('ampere-map-popup__description', place.street));
  const list = document.createElement('ul');
  list.className = 'ampere-map-popup__cars';
  list.setAttribute('aria-label', `${cars.length} cars at ${place.name}`);
  for (const m of cars) {
    const item = document.createElement('li');
    const name = document.createElement(m.href ? 'a' : 'span');
    name.textContent = m.title;
    if (m.href) {
      (name as HTMLAnchorElement).href = m.href;
      name.className = 'ampere-map-popup__link';
    }
    item.append(name);
    if (m.description) {
      const prices = document.createElement('span');
      prices.className = 'ampere-map-popup__description';
      prices.textContent = m.description;
      item.append(prices);
    }
    list.append(item);
  }
  root.append(list);
  return root;
}

/** The lot's name and street under its pin, shown at closer zooms. */
export function createPlaceLabel(place: MapPlace): HTMLElement {
  const el = document.createElement('span');
  el.className = 'ampere-map-label';
  // The pin's own name and popup already say this; the label is for the eye.
  el.setAttribute('aria-hidden', 'true');
  const name = document.createElement('strong');
  name.textContent = place.name;
  el.append(name);
  if (place.street) el.append(document.createElement('br'), place.street);
  return el;
}
