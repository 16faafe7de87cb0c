import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  CODE_TTL_MS,
  COOKIE_NAME,
  DashboardLogin,
  MAX_CODES,
  MAX_SESSIONS,
  SESSION_IDLE_MS,
  cookieValue,
} from './login.js';

const cookieOf = (l: DashboardLogin, s: { id: string }) => `other=1; ${COOKIE_NAME}=${s.id}`;

describe('DashboardLogin', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('trades a code once for a session the cookie then names', () => {
    const l = new DashboardLogin();
    const code = l.mintCode();
    const s = l.redeem(code);
    expect(s).toBeDefined();
    expect(l.redeem(code)).toBeUndefined(); // replayed
    expect(l.session(cookieOf(l, s!))?.id).toBe(s!.id);
    expect(l.session(`${COOKIE_NAME}=forged`)).toBeUndefined();
    expect(l.session(undefined)).toBeUndefined();
    expect(l.cookie(s!)).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
  });

  it('refuses a code after 60 s and one never minted', () => {
    const l = new DashboardLogin();
    const code = l.mintCode();
    vi.advanceTimersByTime(CODE_TTL_MS + 1);
    expect(l.redeem(code)).toBeUndefined();
    expect(l.redeem('made-up')).toBeUndefined();
  });

  it('keeps at most MAX_CODES codes and MAX_SESSIONS sessions', () => {
    const l = new DashboardLogin();
    const first = l.mintCode();
    for (let i = 0; i < MAX_CODES; i++) l.mintCode();
    expect(l.redeem(first)).toBeUndefined();
    const sessions = Array.from({ length: MAX_SESSIONS + 1 }, () => l.redeem(l.mintCode())!);
    expect(l.session(cookieOf(l, sessions[0]!))).toBeUndefined();
    expect(l.session(cookieOf(l, sessions[MAX_SESSIONS]!))).toBeDefined();
  });

  it('ends a session idle too long', () => {
    const l = new DashboardLogin();
    const s = l.redeem(l.mintCode())!;
    vi.advanceTimersByTime(SESSION_IDLE_MS + 1);
    expect(l.session(cookieOf(l, s))).toBeUndefined();
  });

  it('checks the CSRF token exactly', () => {
    const l = new DashboardLogin();
    const s = l.redeem(l.mintCode())!;
    expect(l.csrfMatches(s, s.csrf)).toBe(true);
    expect(l.csrfMatches(s, `${s.csrf}x`)).toBe(false);
    expect(
      l.csrfMatches(
        s,
        s.csrf.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      ),
    ).toBe(false);
    expect(l.csrfMatches(s, undefined)).toBe(false);
    expect(l.csrfMatches(s, [s.csrf])).toBe(false);
  });

  it('reads one cookie of a header', () => {
    expect(cookieValue('a=1; b = 2', 'b')).toBe('2');
    expect(cookieValue('a=1', 'b')).toBeUndefined();
    expect(cookieValue('junk; a=1', 'a')).toBe('1');
  });
});
