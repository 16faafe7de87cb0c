// A growable little-endian byte buffer for the test image builders.

export class Out {
  bytes: number[] = [];
  u8(v: number): this {
    this.bytes.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >>> 8);
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  idx(v: number, wide: boolean): this {
    return wide ? this.u32(v) : this.u16(v);
  }
  raw(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.bytes.push(b[i]!);
    return this;
  }
  align(n: number): this {
    while (this.bytes.length % n) this.bytes.push(0);
    return this;
  }
  get length(): number {
    return this.bytes.length;
  }
}

/** An unsigned compressed integer (ECMA-335 II.23.2), as signatures and blob lengths use. */
export function compressed(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x4000) return [0x80 | (n >>> 8), n & 0xff];
  if (n < 0x20000000) return [0xc0 | (n >>> 24), (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  throw new Error(`${n} is too large for a compressed integer`);
}
