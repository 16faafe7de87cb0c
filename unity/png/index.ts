// PNG decode, area-average shrink and encode, in pure TypeScript over node:zlib.

export { decodePng, MAX_PIXELS, type DecodedPng } from './png-decode.js';
export { encodePng, type EncodeOptions } from './png-encode.js';
export { fitWithin, scaleArea } from './scale.js';
export { isOpaque, PngError, type RgbaImage } from './image.js';
