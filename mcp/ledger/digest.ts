// A call's arguments as one digest: canonical JSON (object keys sorted at every depth, undefined
// members left out, as JSON.stringify leaves them) hashed with sha256. The request store compares
// repeats by it and the audit log records it instead of the arguments themselves.

import { createHash } from 'node:crypto';

/** JSON with every object's keys in sorted order, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The digest of one call: the tool's name, the `player` it names, its own (parsed) arguments. */
export function callDigest(tool: string, player: string | undefined, args: unknown): string {
  return sha256(canonicalJson({ tool, player: player ?? null, args: args ?? null }));
}
