// The dashboard's login: `unity-devtools dashboard` asks the broker for a one-time code (valid
// 60 s, used once), the page at /login trades it for a session cookie (HttpOnly,
// SameSite=Strict, a random id kept in a bounded server-side map), and every action needs that
// session's CSRF token besides. Nothing here is guessable or reusable: a replayed code, an
// expired one, a forged cookie all find nothing.

import { randomBytes, timingSafeEqual } from 'node:crypto';

export const CODE_TTL_MS = 60_000;
/** Codes minted and not used yet, at most (the oldest dropped). */
export const MAX_CODES = 16;
/** Sessions kept, at most (the least recently used dropped). */
export const MAX_SESSIONS = 32;
/** A session unused for this long is gone. */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
export const COOKIE_NAME = 'unity_devtools_dashboard';

export interface DashboardSession {
  id: string;
  csrf: string;
  lastUsed: number;
}

const token = (): string => randomBytes(32).toString('base64url');

export class DashboardLogin {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, DashboardSession>();

  /** A new one-time code, valid CODE_TTL_MS. */
  mintCode(): string {
    this.sweep();
    const code = token();
    this.codes.set(code, Date.now() + CODE_TTL_MS);
    while (this.codes.size > MAX_CODES) this.codes.delete(this.codes.keys().next().value!);
    return code;
  }

  /** Trades a code for a new session; undefined when the code is unknown, used or expired. */
  redeem(code: string): DashboardSession | undefined {
    const expires = this.codes.get(code);
    this.codes.delete(code); // once, whatever happens next
    if (expires === undefined || Date.now() > expires) return undefined;
    const s: DashboardSession = { id: token(), csrf: token(), lastUsed: Date.now() };
    this.sessions.set(s.id, s);
    while (this.sessions.size > MAX_SESSIONS)
      this.sessions.delete(this.sessions.keys().next().value!);
    return s;
  }

  /** The session a request's Cookie header names, if it is live (then it counts as used). */
  session(cookieHeader: string | undefined): DashboardSession | undefined {
    const id = cookieValue(cookieHeader, COOKIE_NAME);
    if (id === undefined) return undefined;
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (Date.now() - s.lastUsed > SESSION_IDLE_MS) {
      this.sessions.delete(id);
      return undefined;
    }
    s.lastUsed = Date.now();
    // most recently used last: the bound drops the stalest
    this.sessions.delete(id);
    this.sessions.set(id, s);
    return s;
  }

  /** Whether `given` (the X-CSRF-Token header) is this session's token. */
  csrfMatches(s: DashboardSession, given: string | string[] | undefined): boolean {
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(s.csrf);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** The Set-Cookie header value for a session. */
  cookie(s: DashboardSession): string {
    return `${COOKIE_NAME}=${s.id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_IDLE_MS / 1000}`;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [c, expires] of this.codes) if (now > expires) this.codes.delete(c);
  }
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
