// Custom numeric format strings ("0.00", "#,##0", "0.#", "0%", "0.0E+00", "pos;neg;zero",
// quoted literals, backslash escapes), ported from the pre-3.0 corefx
// Number.NumberToStringFormat that Mono 6.8 runs, with the invariant NumberFormatInfo.

import type { NumberBuffer } from './number-buffer.js';
import { INVARIANT, formatExponent, roundNumber } from './standard-format.js';

/** Number.FindSection: where section 1 (negative) or 2 (zero) starts, or 0 if absent/empty. */
function findSection(format: string, section: number): number {
  if (section === 0) return 0;
  let src = 0;
  for (;;) {
    if (src >= format.length) return 0;
    const ch = format.charAt(src++);
    switch (ch) {
      case "'":
      case '"':
        while (src < format.length && format.charAt(src++) !== ch);
        break;
      case '\\':
        if (src < format.length) src++;
        break;
      case ';':
        if (--section !== 0) break;
        if (src < format.length && format.charAt(src) !== ';') return src;
        return 0;
      default:
        break;
    }
  }
}

interface SectionShape {
  digitCount: number;
  decimalPos: number;
  firstDigit: number;
  lastDigit: number;
  scientific: boolean;
  thousandPos: number;
  thousandCount: number;
  thousandSeps: boolean;
  scaleAdjust: number;
}

/** The first pass over one section: where the placeholders, point and separators are. */
function scanSection(format: string, start: number): SectionShape {
  const s: SectionShape = {
    digitCount: 0,
    decimalPos: -1,
    firstDigit: 0x7fffffff,
    lastDigit: 0,
    scientific: false,
    thousandPos: -1,
    thousandCount: 0,
    thousandSeps: false,
    scaleAdjust: 0,
  };
  let src = start;
  while (src < format.length) {
    const ch = format.charAt(src++);
    if (ch === ';' || ch === '\0') break;
    switch (ch) {
      case '#':
        s.digitCount++;
        break;
      case '0':
        if (s.firstDigit === 0x7fffffff) s.firstDigit = s.digitCount;
        s.digitCount++;
        s.lastDigit = s.digitCount;
        break;
      case '.':
        if (s.decimalPos < 0) s.decimalPos = s.digitCount;
        break;
      case ',':
        if (s.digitCount > 0 && s.decimalPos < 0) {
          if (s.thousandPos >= 0) {
            if (s.thousandPos === s.digitCount) {
              s.thousandCount++;
              break;
            }
            s.thousandSeps = true;
          }
          s.thousandPos = s.digitCount;
          s.thousandCount = 1;
        }
        break;
      case '%':
        s.scaleAdjust += 2;
        break;
      case '\u2030':
        s.scaleAdjust += 3;
        break;
      case "'":
      case '"':
        while (src < format.length && format.charAt(src++) !== ch);
        break;
      case '\\':
        if (src < format.length) src++;
        break;
      case 'E':
      case 'e': {
        const next = format.charAt(src);
        if (next === '0' || ((next === '+' || next === '-') && format.charAt(src + 1) === '0')) {
          while (++src < format.length && format.charAt(src) === '0');
          s.scientific = true;
        }
        break;
      }
      default:
        break;
    }
  }
  if (s.decimalPos < 0) s.decimalPos = s.digitCount;
  if (s.thousandPos >= 0) {
    if (s.thousandPos === s.decimalPos) s.scaleAdjust -= s.thousandCount * 3;
    else s.thousandSeps = true;
  }
  return s;
}

/** Positions (counted from the decimal point) after which a group separator goes. */
function separatorPositions(digPos: number, adjust: number, firstDigit: number): number[] {
  const positions: number[] = [];
  const size = INVARIANT.groupSizes[0] ?? 3;
  const totalDigits = digPos + (adjust < 0 ? adjust : 0);
  const numDigits = firstDigit > totalDigits ? firstDigit : totalDigits;
  for (let total = size; numDigits > total; total += size) positions.push(total);
  return positions;
}

/** Number.NumberToStringFormat. */
export function numberToStringFormat(n: NumberBuffer, format: string): string {
  let section = findSection(format, n.digits.length === 0 ? 2 : n.negative ? 1 : 0);
  let shape: SectionShape;
  for (;;) {
    shape = scanSection(format, section);
    if (n.digits.length > 0) {
      n.scale += shape.scaleAdjust;
      const pos = shape.scientific
        ? shape.digitCount
        : n.scale + shape.digitCount - shape.decimalPos;
      roundNumber(n, pos);
      if (n.digits.length === 0) {
        const zero = findSection(format, 2);
        if (zero !== section) {
          section = zero;
          continue;
        }
      }
    } else {
      // Pre-3.0 corefx: "We need to format -0 without the sign set" (measured: -0.00m with "0"
      // is "0"), and a decimal zero with a scale ("0.00m") still formats as plain zero.
      n.negative = false;
      n.scale = 0;
    }
    break;
  }
  const { decimalPos, digitCount, thousandSeps } = shape;
  const firstDigit = shape.firstDigit < decimalPos ? decimalPos - shape.firstDigit : 0;
  const lastDigit = shape.lastDigit > decimalPos ? decimalPos - shape.lastDigit : 0;
  let scientific = shape.scientific;
  let digPos: number;
  let adjust: number;
  if (scientific) {
    digPos = decimalPos;
    adjust = 0;
  } else {
    digPos = n.scale > decimalPos ? n.scale : decimalPos;
    adjust = n.scale - decimalPos;
  }
  const seps = thousandSeps ? separatorPositions(digPos, adjust, firstDigit) : [];
  let sepIndex = seps.length - 1;
  let out = n.negative && section === 0 ? INVARIANT.negativeSign : '';
  let decimalWritten = false;
  let cur = 0;
  const digits = n.digits;
  const emitDigit = (ch: string) => {
    out += ch;
    if (thousandSeps && digPos > 1 && sepIndex >= 0 && digPos === (seps[sepIndex] ?? 0) + 1) {
      out += INVARIANT.groupSeparator;
      sepIndex--;
    }
  };
  let src = section;
  while (src < format.length) {
    let ch = format.charAt(src++);
    if (ch === ';' || ch === '\0') break;
    if (adjust > 0 && (ch === '#' || ch === '0' || ch === '.')) {
      // More integer digits than placeholders: they all go before the first placeholder.
      while (adjust > 0) {
        emitDigit(cur < digits.length ? digits.charAt(cur++) : '0');
        digPos--;
        adjust--;
      }
    }
    switch (ch) {
      case '#':
      case '0': {
        if (adjust < 0) {
          adjust++;
          ch = digPos <= firstDigit ? '0' : '';
        } else {
          ch = cur < digits.length ? digits.charAt(cur++) : digPos > lastDigit ? '0' : '';
        }
        if (ch !== '') emitDigit(ch);
        digPos--;
        break;
      }
      case '.':
        if (digPos !== 0 || decimalWritten) break; // repeated points are not echoed
        if (lastDigit < 0 || (decimalPos < digitCount && cur < digits.length)) {
          out += INVARIANT.decimalSeparator;
          decimalWritten = true;
        }
        break;
      case '\u2030':
        out += INVARIANT.perMilleSymbol;
        break;
      case '%':
        out += INVARIANT.percentSymbol;
        break;
      case ',':
        break;
      case "'":
      case '"':
        while (src < format.length && format.charAt(src) !== ch) out += format.charAt(src++);
        if (src < format.length) src++;
        break;
      case '\\':
        if (src < format.length) out += format.charAt(src++);
        break;
      case 'E':
      case 'e': {
        let positiveSign = false;
        let minDigits = 0;
        if (scientific) {
          const next = format.charAt(src);
          if (next === '0') {
            minDigits++; // "E0" formats like "E-0"
          } else if (next === '+' && format.charAt(src + 1) === '0') {
            positiveSign = true;
          } else if (!(next === '-' && format.charAt(src + 1) === '0')) {
            out += ch;
            break;
          }
          while (++src < format.length && format.charAt(src) === '0') minDigits++;
          if (minDigits > 10) minDigits = 10;
          const exp = digits.length === 0 ? 0 : n.scale - decimalPos;
          out += formatExponent(exp, ch, minDigits, positiveSign);
          scientific = false;
        } else {
          out += ch;
          if (src < format.length) {
            const sign = format.charAt(src);
            if (sign === '+' || sign === '-') out += format.charAt(src++);
            while (src < format.length && format.charAt(src) === '0') out += format.charAt(src++);
          }
        }
        break;
      }
      default:
        out += ch;
        break;
    }
  }
  return out;
}
