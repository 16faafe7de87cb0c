// The audit log on its own: lines in order, 0600, rotated by size keeping three old files, and a
// full buffer drops its oldest lines and says how many.

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { AuditLog, auditFile, type AuditEntry } from './audit.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ud-audit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (n: number): AuditEntry => ({
  time: new Date(0).toISOString(),
  caller: 'agent',
  tool: 'eval',
  args_sha256: 'ab'.repeat(32),
  outcome: 'ok',
  duration_ms: n,
});

function lines(file: string): AuditEntry[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditEntry);
}

describe('AuditLog', () => {
  it('writes every line in order, the file 0600', async () => {
    const log = new AuditLog({ dir });
    for (let i = 0; i < 5; i++) log.append(entry(i));
    await log.flush();
    log.append(entry(5));
    await log.close();
    expect(lines(log.file).map((e) => e.duration_ms)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(statSync(log.file).mode & 0o777).toBe(0o600);
  });

  it('rotates by size: audit.jsonl → audit.1.jsonl → … audit.3.jsonl, the oldest dropped', async () => {
    const one = Buffer.byteLength(`${JSON.stringify(entry(10))}\n`);
    const log = new AuditLog({ dir, maxBytes: one * 2 });
    for (let i = 10; i < 20; i++) {
      log.append(entry(i));
      await log.flush(); // one line per write, so each rotation point is exact
    }
    await log.close();
    // 10 lines, two per file: the live file and three rotated ones keep the newest 8
    expect(lines(auditFile(dir, 0)).map((e) => e.duration_ms)).toEqual([18, 19]);
    expect(lines(auditFile(dir, 1)).map((e) => e.duration_ms)).toEqual([16, 17]);
    expect(lines(auditFile(dir, 2)).map((e) => e.duration_ms)).toEqual([14, 15]);
    expect(lines(auditFile(dir, 3)).map((e) => e.duration_ms)).toEqual([12, 13]);
    expect(existsSync(auditFile(dir, 4))).toBe(false);
    for (let n = 0; n <= 3; n++) expect(statSync(auditFile(dir, n)).mode & 0o777).toBe(0o600);
  });

  it('a full buffer drops its oldest lines and writes how many, never blocking the caller', async () => {
    const said: string[] = [];
    const log = new AuditLog({ dir, bufferLines: 3, log: (l) => said.push(l) });
    for (let i = 0; i < 10; i++) log.append(entry(i)); // all in one tick: nothing written yet
    await log.close();
    const written = readFileSync(log.file, 'utf8').trim().split('\n');
    expect(JSON.parse(written[0]!)).toMatchObject({ dropped: 7 });
    expect(written.slice(1).map((l) => (JSON.parse(l) as AuditEntry).duration_ms)).toEqual([
      7, 8, 9,
    ]);
    expect(said.join('\n')).toMatch(/7 line\(s\) dropped/);
  });
});
