// Number.NumberToDouble of the pre-3.0 corefx that Mono 6.8 runs: the "portable" decimal-digits
// -> double conversion with 64-bit mantissas and a lossy 64×64 multiply. It is NOT always the
// nearest double, and "R" formatting depends on it: "R" keeps 15 digits only if they parse back
// to the same double *through this function* (measured: -1.1112899999999999.ToString("R") keeps
// 17 digits on Mono 6.8 although "-1.11129" parses to the same double in a correct parser).

import type { NumberBuffer } from './number-buffer.js';

const U64 = (x: bigint) => BigInt.asUintN(64, x);

// 10^1..10^15 then 10^-1..10^-15 as normalized 64-bit mantissas, and their binary exponents.
const POWER10 = [
  0xa000000000000000n,
  0xc800000000000000n,
  0xfa00000000000000n,
  0x9c40000000000000n,
  0xc350000000000000n,
  0xf424000000000000n,
  0x9896800000000000n,
  0xbebc200000000000n,
  0xee6b280000000000n,
  0x9502f90000000000n,
  0xba43b74000000000n,
  0xe8d4a51000000000n,
  0x9184e72a00000000n,
  0xb5e620f480000000n,
  0xe35fa931a0000000n,
  0xcccccccccccccccdn,
  0xa3d70a3d70a3d70bn,
  0x83126e978d4fdf3cn,
  0xd1b71758e219652en,
  0xa7c5ac471b478425n,
  0x8637bd05af6c69b7n,
  0xd6bf94d5e57a42ben,
  0xabcc77118461ceffn,
  0x89705f4136b4a599n,
  0xdbe6fecebdedd5c2n,
  0xafebff0bcb24ab02n,
  0x8cbccc096f5088cfn,
  0xe12e13424bb40e18n,
  0xb424dc35095cd813n,
  0x901d7cf73ab0acdcn,
];
const POWER10_EXP = [4, 7, 10, 14, 17, 20, 24, 27, 30, 34, 37, 40, 44, 47, 50];
// 10^16k and 10^-16k for k = 1..21.
const POWER10_BY16 = [
  0x8e1bc9bf04000000n,
  0x9dc5ada82b70b59en,
  0xaf298d050e4395d6n,
  0xc2781f49ffcfa6d4n,
  0xd7e77a8f87daf7fan,
  0xefb3ab16c59b14a0n,
  0x850fadc09923329cn,
  0x93ba47c980e98cden,
  0xa402b9c5a8d3a6e6n,
  0xb616a12b7fe617a8n,
  0xca28a291859bbf90n,
  0xe070f78d39275566n,
  0xf92e0c3537826140n,
  0x8a5296ffe33cc92cn,
  0x9991a6f3d6bf1762n,
  0xaa7eebfb9df9de8an,
  0xbd49d14aa79dbc7en,
  0xd226fc195c6a2f88n,
  0xe950df20247c83f8n,
  0x81842f29f2cce373n,
  0x8fcac257558ee4e2n,
  0xe69594bec44de160n,
  0xcfb11ead453994c3n,
  0xbb127c53b17ec165n,
  0xa87fea27a539e9b3n,
  0x97c560ba6b0919b5n,
  0x88b402f7fd7553abn,
  0xf64335bcf065d3a0n,
  0xddd0467c64bce4c4n,
  0xc7caba6e7c5382edn,
  0xb3f4e093db73a0b7n,
  0xa21727db38cb0053n,
  0x91ff83775423cc29n,
  0x8380dea93da4bc82n,
  0xece53cec4a314f00n,
  0xd5605fcdcf32e217n,
  0xc0314325637a1978n,
  0xad1c8eab5ee43ba2n,
  0x9becce62836ac5b0n,
  0x8c71dcd9ba0b495cn,
  0xfd00b89747823938n,
  0xe3e27a444d8d991an,
];
const POWER10_BY16_EXP = [
  54, 107, 160, 213, 266, 319, 373, 426, 479, 532, 585, 638, 691, 745, 798, 851, 904, 957, 1010,
  1064, 1117,
];

function at<T>(table: readonly T[], i: number): T {
  const v = table[i];
  if (v === undefined) throw new RangeError(`table index ${i}`);
  return v;
}

/** Mul64Lossy: the high 64 bits of a×b from three 32×32 products, renormalized. */
function mul64Lossy(a: bigint, b: bigint, exp: { value: number }): bigint {
  const ah = a >> 32n;
  const al = a & 0xffffffffn;
  const bh = b >> 32n;
  const bl = b & 0xffffffffn;
  let val = U64(ah * bh + ((ah * bl) >> 32n) + ((al * bh) >> 32n));
  if ((val & (1n << 63n)) === 0n) {
    val = U64(val << 1n);
    exp.value -= 1;
  }
  return val;
}

const bits = new DataView(new ArrayBuffer(8));

/** The double Mono parses from a digit buffer (all its digits, trailing zeros included). */
export function monoNumberToDouble(n: NumberBuffer): number {
  const digits = n.digits;
  const total = digits.length;
  let start = 0;
  while (digits.charAt(start) === '0') start++;
  let remaining = total - start;
  if (remaining === 0) return 0;
  const count = Math.min(remaining, 9);
  remaining -= count;
  let val = BigInt(digits.slice(start, start + count));
  if (remaining > 0) {
    const more = Math.min(remaining, 9);
    remaining -= more;
    val = val * 10n ** BigInt(more) + BigInt(digits.slice(start + 9, start + 9 + more));
  }
  const scale = n.scale - (total - remaining);
  const absScale = Math.abs(scale);
  if (absScale >= 22 * 16) {
    const inf = scale > 0 ? Infinity : 0;
    return n.negative ? -inf : inf;
  }
  const exp = { value: 64 };
  for (const shift of [32n, 16n, 8n, 4n, 2n, 1n]) {
    if (val >> (64n - shift) === 0n) {
      val = U64(val << shift);
      exp.value -= Number(shift);
    }
  }
  const index = absScale & 15;
  if (index !== 0) {
    const multExp = at(POWER10_EXP, index - 1);
    exp.value += scale < 0 ? -multExp + 1 : multExp;
    val = mul64Lossy(val, at(POWER10, index + (scale < 0 ? 15 : 0) - 1), exp);
  }
  const index16 = absScale >> 4;
  if (index16 !== 0) {
    const multExp = at(POWER10_BY16_EXP, index16 - 1);
    exp.value += scale < 0 ? -multExp + 1 : multExp;
    val = mul64Lossy(val, at(POWER10_BY16, index16 + (scale < 0 ? 21 : 0) - 1), exp);
  }
  // Round to 53 bits, ties to even, on the (already inexact) 64-bit mantissa.
  if ((val & (1n << 10n)) !== 0n) {
    let tmp = U64(val + 0x3ffn + ((val >> 11n) & 1n));
    if (tmp < val) {
      tmp = (tmp >> 1n) | (1n << 63n);
      exp.value += 1;
    }
    val = tmp;
  }
  const e = exp.value + 0x3fe;
  let result: bigint;
  if (e <= 0) {
    if (e === -52 && val >= 0x8000000000000058n) result = 1n;
    else if (e <= -52) result = 0n;
    else result = val >> BigInt(-e + 11 + 1);
  } else if (e >= 0x7ff) {
    result = 0x7ff0000000000000n;
  } else {
    result = (BigInt(e) << 52n) + ((val >> 11n) & 0xfffffffffffffn);
  }
  if (n.negative) result |= 1n << 63n;
  bits.setBigUint64(0, result);
  return bits.getFloat64(0);
}
