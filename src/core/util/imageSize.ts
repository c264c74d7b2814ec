/**
 * The width and height an image says it has, read from its header (PNG, GIF, JPEG, WebP, BMP) without
 * decoding it: a 1 MB PNG may declare 20 000 × 20 000 pixels, and the webview that draws it grows by a
 * gigabyte. Only the first {@link HEADER_BYTES} bytes are decoded.
 */

/** How much of an image is decoded to find its size (a JPEG's frame header follows its metadata). */
export const HEADER_BYTES = 256 * 1024;

/** An image's declared size in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The declared size of a base64 image of type `mimeType`, or `undefined` when its header cannot be
 * read (an unknown type, or bytes that are not what the type says).
 */
export function imageSize(mimeType: string, base64: string): ImageSize | undefined {
  const head = Buffer.from(base64.slice(0, Math.ceil((HEADER_BYTES * 4) / 3)).replace(/\s+/g, ''), 'base64');
  switch (mimeType) {
    case 'image/png':
      return head.length >= 24 && head.toString('latin1', 12, 16) === 'IHDR'
        ? { width: head.readUInt32BE(16), height: head.readUInt32BE(20) }
        : undefined;
    case 'image/gif':
      return head.length >= 10 && head.toString('latin1', 0, 3) === 'GIF'
        ? { width: head.readUInt16LE(6), height: head.readUInt16LE(8) }
        : undefined;
    case 'image/bmp':
      return head.length >= 26 && head.toString('latin1', 0, 2) === 'BM'
        ? { width: Math.abs(head.readInt32LE(18)), height: Math.abs(head.readInt32LE(22)) }
        : undefined;
    case 'image/webp':
      return webpSize(head);
    case 'image/jpeg':
      return jpegSize(head);
    default:
      return undefined;
  }
}

/** A WebP's size from its VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk. */
function webpSize(b: Buffer): ImageSize | undefined {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** A JPEG's size from its first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(b: Buffer): ImageSize | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    }
    i += 2 + b.readUInt16BE(i + 2);
  }
  return undefined;
}
