import { PRODUCT_NAME } from '@ampere/domain/constants';

export type NavbarType = 'default' | 'search' | 'booking';
export type FooterVariant = 'default' | 'search' | 'application' | 'none';

/** Route metadata (spec 2): title, whether login is needed, navbar type, footer variant, body layout. */
export interface RouteHandle {
  title: string;
  authenticated?: boolean;
  navbar: NavbarType;
  footer: FooterVariant;
  layout: 'default' | 'full';
  /** The one-way trips banner shows on search and vehicle pages only. */
  banner?: boolean;
}

/**
 * Page title is '{title} | {product}', with the vin on vehicle pages and the platform id on trip
 * pages; a page's own title (`override`, e.g. a car that was not found) replaces the route's, without either.
 */
export function pageTitle(
  handle: RouteHandle | undefined,
  params: Record<string, string | undefined>,
  override: string | null = null,
): string {
  if (override) return `${override} | ${PRODUCT_NAME}`;
  if (!handle) return PRODUCT_NAME;
  const suffix = params.vin ?? params.id;
  return `${suffix ? `${handle.title} ${suffix}` : handle.title} | ${PRODUCT_NAME}`;
}
