/**
 * Setup for the component tests (`*.component.test.tsx`, Vitest's `component` project, jsdom):
 * Testing Library's matchers, the browser features jsdom lacks (window.ts), and before each test a
 * clean page, a signed-out browser, no analytics events and an API that answers only the config
 * and analytics (fake-api.ts).
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { flush } from '../shared/analytics.ts';
import { clearSession } from '../shared/auth/session-store.ts';
import { fakeApi, uninstallFakeApi } from './fake-api.ts';
import { installWindowShims, resetWindowWidth } from './window.ts';

installWindowShims();
// On a busy machine (two cores, several suites) a page's answers can take more than the default
// second to land: waiting longer costs a passing test nothing.
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  resetWindowWidth();
  localStorage.clear();
  // Signed out to begin with (the store keeps the session it read; this tells it).
  clearSession();
  window.__ampereEvents = [];
  // Nothing reaches a network: a test that needs answers installs its own fake over this one.
  fakeApi();
});

afterEach(() => {
  cleanup();
  // Events still queued go to this test's fake now, not to whatever runs when their timer fires.
  flush();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  uninstallFakeApi();
});
