import { describe, expect, it } from 'vitest';
import { isPagePath } from './pages.ts';

describe('which addresses are pages', () => {
  it("the app's pages, with their parameters, a trailing slash or another letter case", () => {
    for (const path of [
      '/',
      '/search',
      '/search/',
      '/Search',
      '/vehicle/5YJ3E1EA7KF317000',
      '/trip/AB-12-CD',
      '/trip/AB-12-CD/pay',
      '/trip/AB-12-CD/extension/confirmed',
      '/onboarding/license/verification',
      '/key/abc_123',
      '/receipt',
      '/policies',
    ])
      expect(isPagePath(path), path).toBe(true);
  });

  it('anything else is not: a typo, an extra or missing segment, an empty parameter', () => {
    for (const path of [
      '/serch',
      '/trip',
      '/trip/AB-12-CD/unknown',
      '/vehicle',
      '/vehicle//',
      '//search',
      '/search/extra',
      '/trips/AB-12-CD',
      '/index.html',
    ])
      expect(isPagePath(path), path).toBe(false);
  });
});
