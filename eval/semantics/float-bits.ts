// Binary floating-point helpers that JavaScript lacks: correctly rounded bigint -> binary32,
// and the x86-64 truncating conversions (cvttsd2si) that Mono 6.8's JIT emits for unchecked
// double -> integer casts.

/** The binary32 nearest to an integer, ties to even (one rounding, unlike fround(Number(b))). */
export function bigIntToFloat32(value: bigint): number {
  const negative = value < 0n;
  let mag = negative ? -value : value;
  const bits = mag.toString(2).length;
  if (bits > 24) {
    const shift = BigInt(bits - 24);
    const rest = mag & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    mag >>= shift;
    if (rest > half || (rest === half && (mag & 1n) === 1n)) mag++;
    // Scaling by a power of two is exact, and an overflow past float.MaxValue gives Infinity.
    const scaled = Number(mag) * 2 ** Number(shift);
    return Math.fround(negative ? -scaled : scaled);
  }
  return negative ? -Number(mag) : Number(mag);
}

const TWO_31 = 2 ** 31;
const TWO_63 = 2 ** 63;

/** cvttsd2si with a 32-bit destination: NaN and out-of-range give 0x80000000. */
export function truncateToInt32(x: number): number {
  const t = Math.trunc(x);
  return Number.isNaN(t) || t < -TWO_31 || t >= TWO_31 ? -TWO_31 : t;
}

/** cvttsd2si with a 64-bit destination: NaN and out-of-range give 0x8000000000000000. */
export function truncateToInt64(x: number): bigint {
  const t = Math.trunc(x);
  return Number.isNaN(t) || t < -TWO_63 || t >= TWO_63 ? -(1n << 63n) : BigInt(t);
}

/**
 * Mono's mono_fconv_u8 on x86/amd64: below 2^63 a signed conversion, otherwise convert
 * v - 2^63 and add 2^63 back (wrapping). Measured: (ulong)-1.0 == ulong.MaxValue,
 * (ulong)1.9e19 == 0, (ulong)double.NaN == 0, (ulong)-1e20 == 2^63.
 */
export function truncateToUInt64(x: number): bigint {
  if (x < TWO_63) return BigInt.asUintN(64, truncateToInt64(x));
  return BigInt.asUintN(64, truncateToInt64(x - TWO_63) + (1n << 63n));
}
