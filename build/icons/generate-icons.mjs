// Draws the RateDesk icon and writes every file electron-builder wants, with Node alone (no ImageMagick,
// no browser), so the icons can be regenerated on any machine: node build/icons/generate-icons.mjs
//   build/icons/icon.svg           the source drawing (same geometry as the rasteriser below)
//   build/icons/<N>x<N>.png        16…1024, the Linux icon set
//   build/icon.png                 512×512, the fallback every target accepts
//   build/icon.ico                 Windows (PNG-compressed entries 16…256)
//   build/icon.icns                macOS (PNG entries 16…1024)
// The drawing: a rounded tile in a blue-to-teal gradient, a parcel with its tape and lid, and three speed
// lines — "parcel delivery, compared quickly".
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const buildDir = join(here, '..');

// Geometry on a 1024 grid.
const TILE = { x: 64, y: 64, w: 896, h: 896, r: 200 };
const GRADIENT = { from: [31, 79, 209], to: [15, 158, 168] }; // #1f4fd1 → #0f9ea8, top-left to bottom-right
const BOX = { x: 392, y: 300, w: 432, h: 424, r: 48 };
/** The lid is the top band of the box, in a lighter shade. */
const LID = { x: 392, y: 300, w: 432, h: 96, r: 0 };
const TAPE = { x: 572, y: 300, w: 72, h: 424, r: 0 };
const LINES = [
  { x1: 184, x2: 324, y: 420, r: 30 },
  { x1: 136, x2: 324, y: 512, r: 30 },
  { x1: 216, x2: 324, y: 604, r: 30 },
];
const WHITE = [255, 255, 255];
const LID_SHADE = [220, 232, 246];
const TAPE_COLOR = [245, 166, 35]; // amber

function roundedRectDistance(px, py, { x, y, w, h, r }) {
  const cx = x + w / 2;
  const cy = y + h / 2;
  const qx = Math.abs(px - cx) - (w / 2 - r);
  const qy = Math.abs(py - cy) - (h / 2 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function capsuleDistance(px, py, { x1, x2, y, r }) {
  const cx = Math.min(Math.max(px, x1), x2);
  return Math.hypot(px - cx, py - y) - r;
}

/** Colour (RGBA 0..255) of one point of the 1024 grid, before anti-aliasing. */
function shade(px, py) {
  if (roundedRectDistance(px, py, TILE) > 0) return [0, 0, 0, 0];
  const t = Math.min(Math.max((px - TILE.x + (py - TILE.y)) / (TILE.w + TILE.h), 0), 1);
  let rgb = GRADIENT.from.map((c, i) => Math.round(c + (GRADIENT.to[i] - c) * t));
  if (LINES.some((l) => capsuleDistance(px, py, l) <= 0)) rgb = WHITE;
  if (roundedRectDistance(px, py, BOX) <= 0) {
    rgb = py < LID.y + LID.h ? LID_SHADE : WHITE;
    if (roundedRectDistance(px, py, TAPE) <= 0) rgb = TAPE_COLOR;
  }
  return [...rgb, 255];
}

/** Renders at `size` px with 4×4 supersampling per pixel (smooth edges at 16 px too). */
function render(size) {
  const n = 4;
  const scale = 1024 / size;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [cr, cg, cb, ca] = shade((x + (sx + 0.5) / n) * scale, (y + (sy + 0.5) / n) * scale);
          // Premultiplied, so transparent samples do not darken the edge.
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const o = (y * size + x) * 4;
      pixels[o] = a ? Math.round(r / a) : 0;
      pixels[o + 1] = a ? Math.round(g / a) : 0;
      pixels[o + 2] = a ? Math.round(b / a) : 0;
      pixels[o + 3] = Math.round(a / (n * n));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGBA PNG. */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** ICO with PNG entries (read by Windows Vista and later, and by NSIS). */
function encodeIco(entries) {
  const header = Buffer.alloc(6 + entries.length * 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach(({ size, png }, i) => {
    const e = 6 + i * 16;
    header[e] = size >= 256 ? 0 : size; // 0 means 256
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...entries.map((e) => e.png)]);
}

const ICNS_TYPES = {
  16: 'icp4',
  32: 'icp5',
  64: 'icp6',
  128: 'ic07',
  256: 'ic08',
  512: 'ic09',
  1024: 'ic10',
};
function encodeIcns(entries) {
  const blocks = entries.map(({ size, png }) => {
    const head = Buffer.alloc(8);
    head.write(ICNS_TYPES[size], 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + blocks.reduce((n, b) => n + b.length, 0), 4);
  return Buffer.concat([head, ...blocks]);
}

function svg() {
  const rect = (b, fill) =>
    `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="${b.r}" fill="${fill}"/>`;
  const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024" width="1024" height="1024">
  <title>RateDesk</title>
  <defs>
    <linearGradient id="tile" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${hex(GRADIENT.from)}"/>
      <stop offset="1" stop-color="${hex(GRADIENT.to)}"/>
    </linearGradient>
    <clipPath id="box">${rect(BOX, '#000000')}</clipPath>
  </defs>
  ${rect(TILE, 'url(#tile)')}
  ${LINES.map((l) => `<line x1="${l.x1}" y1="${l.y}" x2="${l.x2}" y2="${l.y}" stroke="#ffffff" stroke-width="${l.r * 2}" stroke-linecap="round"/>`).join('\n  ')}
  ${rect(BOX, '#ffffff')}
  <g clip-path="url(#box)">${rect(LID, hex(LID_SHADE))}</g>
  ${rect(TAPE, hex(TAPE_COLOR))}
</svg>
`;
}

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const pngs = new Map(SIZES.map((size) => [size, encodePng(size, render(size))]));
mkdirSync(here, { recursive: true });
writeFileSync(join(here, 'icon.svg'), svg());
for (const [size, png] of pngs) writeFileSync(join(here, `${size}x${size}.png`), png);
writeFileSync(join(buildDir, 'icon.png'), pngs.get(512));
writeFileSync(
  join(buildDir, 'icon.ico'),
  encodeIco([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: pngs.get(size) }))),
);
writeFileSync(
  join(buildDir, 'icon.icns'),
  encodeIcns([16, 32, 64, 128, 256, 512, 1024].map((size) => ({ size, png: pngs.get(size) }))),
);
console.log(`wrote icon.svg, ${SIZES.length} PNGs, icon.png, icon.ico, icon.icns`);
