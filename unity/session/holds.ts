// Suspend holds taken across calls, counted per caller (a caller id comes from the MCP session),
// so the game can say who holds it and a caller's holds can be released when it goes away.

export class HoldTable {
  private readonly byCaller = new Map<string, number>();
  /** When each holder's oldest hold still held was taken (the dashboard's "for how long"). */
  private readonly since = new Map<string, number>();

  add(caller: string): void {
    if (!this.byCaller.has(caller)) this.since.set(caller, Date.now());
    this.byCaller.set(caller, (this.byCaller.get(caller) ?? 0) + 1);
  }

  /** Removes one of `caller`'s holds; false when it had none. */
  remove(caller: string): boolean {
    const n = this.byCaller.get(caller) ?? 0;
    if (n === 0) return false;
    if (n === 1) {
      this.byCaller.delete(caller);
      this.since.delete(caller);
    } else this.byCaller.set(caller, n - 1);
    return true;
  }

  /** Since when (epoch ms) `caller` has held the game without a break; undefined: it holds none. */
  heldSince(caller: string): number | undefined {
    return this.since.get(caller);
  }

  count(caller: string): number {
    return this.byCaller.get(caller) ?? 0;
  }

  get total(): number {
    let n = 0;
    for (const c of this.byCaller.values()) n += c;
    return n;
  }

  /** The caller that has held the game longest (insertion order of the map). */
  oldestHolder(): string | undefined {
    return this.byCaller.keys().next().value;
  }

  list(): { caller: string; count: number }[] {
    return [...this.byCaller].map(([caller, count]) => ({ caller, count }));
  }

  clear(): void {
    this.byCaller.clear();
    this.since.clear();
  }
}
