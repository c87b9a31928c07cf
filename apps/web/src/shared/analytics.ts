/**
 * Analytics events named by the spec (search_performed, filter_applied, vehicle_card_clicked, …).
 * Until the server-side sink exists they are kept in memory, where tests and developers can read
 * them (window.__ampereEvents).
 */
export type AnalyticsEvent = { name: string; properties: Record<string, unknown>; at: string };

declare global {
  interface Window {
    __ampereEvents?: AnalyticsEvent[];
  }
}

export function track(name: string, properties: Record<string, unknown> = {}): void {
  const list = (window.__ampereEvents ??= []);
  list.push({ name, properties, at: new Date().toISOString() });
}
