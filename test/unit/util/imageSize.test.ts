/** An image's declared size from its header (src/core/util/imageSize.ts), and the pixel bound of the result view and the round panel. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { imageSize } from '../../../src/core/util/imageSize';
import { buildResultView, MAX_SHOWN_MEDIA, MAX_SHOWN_PIXELS } from '../../../src/core/results/resultViewBuild';
import { blockView } from '../../../src/vscode/roundPanel/inputs/samplingContent';

const b64 = (...parts: (Buffer | number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p)))).toString(
    'base64',
  );
const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16 = (n: number, le: boolean) => {
  const b = Buffer.alloc(2);
  if (le) b.writeUInt16LE(n);
  else b.writeUInt16BE(n);
  return b;
};

/** A PNG's signature and IHDR chunk declaring `w` × `h` (what a hostile server sends ahead of a small body). */
const png = (w: number, h: number) =>
  b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(13), 'IHDR', u32be(w), u32be(h), [8, 6, 0, 0, 0], u32be(0));
/** A JPEG with an APP0 segment, then a baseline frame header declaring `w` × `h`. */
const jpeg = (w: number, h: number) =>
  b64(
    [0xff, 0xd8, 0xff, 0xe0],
    u16(16, false),
    'JFIF\0',
    [1, 1, 0, 0, 1, 0, 1, 0, 0],
    [0xff, 0xc0],
    u16(17, false),
    [8],
    u16(h, false),
    u16(w, false),
    [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
  );

describe('imageSize', () => {
  it('reads the declared size of PNG, JPEG, GIF, WebP and BMP headers', () => {
    assert.deepEqual(imageSize('image/png', png(20_000, 20_000)), { width: 20_000, height: 20_000 });
    assert.deepEqual(imageSize('image/jpeg', jpeg(640, 480)), { width: 640, height: 480 });
    assert.deepEqual(imageSize('image/gif', b64('GIF89a', u16(300, true), u16(200, true))), { width: 300, height: 200 });
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'latin1');
    vp8x.write('WEBPVP8X', 8, 'latin1');
    vp8x.writeUIntLE(4999, 24, 3);
    vp8x.writeUIntLE(2999, 27, 3);
    assert.deepEqual(imageSize('image/webp', vp8x.toString('base64')), { width: 5000, height: 3000 });
    const bmp = Buffer.alloc(26);
    bmp.write('BM', 0, 'latin1');
    bmp.writeInt32LE(1024, 18);
    bmp.writeInt32LE(-768, 22);
    assert.deepEqual(imageSize('image/bmp', bmp.toString('base64')), { width: 1024, height: 768 });
  });

  it('the real PNG server-everything returns (its MCP logo) is 20 × 20', () => {
    const source = readFileSync(
      path.join(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js'),
      'utf8',
    );
    const logo = /MCP_TINY_IMAGE = "([A-Za-z0-9+/=]+)"/.exec(source)?.[1];
    assert.ok(logo);
    assert.deepEqual(imageSize('image/png', logo), { width: 20, height: 20 });
  });

  it('a header that is not what its type says is no size', () => {
    assert.equal(imageSize('image/png', b64('not a png at all, really')), undefined);
    assert.equal(imageSize('image/jpeg', png(1, 1)), undefined);
    assert.equal(imageSize('image/svg+xml', b64('<svg/>')), undefined);
  });
});

describe('the result view and an image past the pixel bound', () => {
  const view = (data: string, mimeType = 'image/png') =>
    buildResultView({ server: 's', method: 'tools/call', target: 't', result: { content: [{ type: 'image', mimeType, data }] } }).blocks[0];

  it('a small image is sent as it is; one declaring 20 000 × 20 000 pixels is named instead', () => {
    assert.deepEqual(view(png(64, 64)), { kind: 'image', mimeType: 'image/png', data: png(64, 64) });
    assert.ok(20_000 * 20_000 > MAX_SHOWN_PIXELS);
    assert.deepEqual(view(png(20_000, 20_000)), {
      kind: 'omitted',
      what: 'image (image/png, 20000 × 20000 pixels): too large to show here; use Open raw',
    });
    assert.equal(view(jpeg(30_000, 30_000), 'image/jpeg').kind, 'omitted');
  });
});

describe("the round panel's sampling card and an image past the pixel bound", () => {
  it('a small image is drawn; one declaring 20 000 × 20 000 pixels, or past the byte bound, is named instead', () => {
    assert.deepEqual(blockView({ type: 'image', mimeType: 'image/png', data: png(64, 64) }), {
      kind: 'image',
      mimeType: 'image/png',
      data: png(64, 64),
    });
    assert.deepEqual(blockView({ type: 'image', mimeType: 'image/png', data: png(20_000, 20_000) }), {
      kind: 'other',
      type: 'image',
      json: 'image (image/png, 20000 × 20000 pixels): too large to show here',
    });
    const huge = blockView({ type: 'audio', mimeType: 'audio/wav', data: 'A'.repeat(MAX_SHOWN_MEDIA + 4) });
    assert.equal(huge.kind, 'other');
  });
});
