import { describe, expect, it } from 'vitest';
import { loginFor, loginTarget } from './login-target.ts';

const target = (qs: string) => loginTarget(new URLSearchParams(qs));

describe('login redirect (spec 2: login success with a redirect goes to that path with the remaining query; otherwise to /)', () => {
  it('goes home without a redirect', () => {
    expect(target('')).toBe('/');
  });
  it('goes to the redirect path with its own query', () => {
    expect(target('redirect=%2Fprofile')).toBe('/profile');
    expect(target(`redirect=${encodeURIComponent('/trip/AB-12/pay?x=1')}`)).toBe('/trip/AB-12/pay?x=1');
  });
  it('adds the remaining query to the redirect path', () => {
    expect(target('redirect=%2Fsearch%3Fmodel%3DModel%2BY&color=red')).toBe('/search?model=Model+Y&color=red');
  });
  it('resumes a booking: redirect=create-booking carries the booking details', () => {
    const t = new URL(
      target(
        'redirect=create-booking&vehicleVin=5YJ3&pickupDate=2030-01-02&pickupTime=10%3A00&addonIds=%5B%22cp%22%5D&vehicleTimezone=America%2FChicago',
      ),
      'http://x',
    );
    expect(t.pathname).toBe('/create-booking');
    expect(t.searchParams.get('vehicleVin')).toBe('5YJ3');
    expect(t.searchParams.get('pickupTime')).toBe('10:00');
    expect(JSON.parse(t.searchParams.get('addonIds')!)).toEqual(['cp']);
    expect(t.searchParams.has('redirect')).toBe(false);
  });
  it('never leaves the site or loops back to login', () => {
    expect(target('redirect=https%3A%2F%2Fevil.example')).toBe('/');
    expect(target('redirect=%2F%2Fevil.example')).toBe('/');
    expect(target('redirect=%2F%5Cevil.example')).toBe('/');
    expect(target('redirect=%2Flogin%3Fredirect%3D%252Fprofile')).toBe('/');
    expect(target('redirect=%2Flogout')).toBe('/');
  });
});

describe('protected route without login (spec 2: goes to /login?redirect={full path})', () => {
  it('carries the full path with its query', () => {
    expect(loginFor({ pathname: '/profile', search: '' })).toBe('/login?redirect=%2Fprofile');
    expect(loginFor({ pathname: '/trip/1-2', search: '?a=b' })).toBe('/login?redirect=%2Ftrip%2F1-2%3Fa%3Db');
  });
});
