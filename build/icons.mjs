// `node build/icons.mjs`: draws the app's icons into build/icons (committed; a test checks they
// are this script's output). No image tools needed: shapes are drawn with 4x4 supersampling and
// written as PNG with zlib.
//   icon.png          1024 px, the installers' icon (electron-builder makes .ico and .icns from it)
//   tray-<state>.png  16 px and @2x 32 px, the tray icon: ok (green), warn (amber), error (red)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

export const ICONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'icons');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** An RGBA image (size x size, straight alpha) as PNG bytes. */
export function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];

/** Inside a rounded rectangle (coordinates 0..1). */
const roundRect = (x0, y0, x1, y1, r) => (x, y) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
};
/** A receipt: a paper strip with a torn (zigzag) lower edge. */
const receipt = (x0, y0, x1, y1, teeth) => (x, y) => {
  if (x < x0 || x > x1 || y < y0) return false;
  const w = (x1 - x0) / teeth;
  const phase = ((x - x0) % w) / w;
  const edge = y1 - (w / 2) * (1 - Math.abs(phase * 2 - 1));
  return y <= edge;
};

/** Draws layers (shape, colour) back to front, each pixel sampled 4x4 times. */
function draw(size, layers) {
  const rgba = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy += 1) {
        for (let sx = 0; sx < n; sx += 1) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          for (let i = layers.length - 1; i >= 0; i -= 1) {
            const [inside, colour] = layers[i];
            if (!inside(x, y)) continue;
            r += colour[0];
            g += colour[1];
            b += colour[2];
            a += 1;
            break;
          }
        }
      }
      const o = (py * size + px) * 4;
      if (a === 0) continue;
      rgba[o] = Math.round(r / a);
      rgba[o + 1] = Math.round(g / a);
      rgba[o + 2] = Math.round(b / a);
      rgba[o + 3] = Math.round((255 * a) / (n * n));
    }
  }
  return rgba;
}

const WHITE = hex('#ffffff');
const LINE = hex('#8a96a8');

/** The app icon: a receipt on a blue tile. */
export function appIcon(size) {
  const lines = [0.36, 0.46, 0.56].map((y) => [roundRect(0.36, y, 0.64, y + 0.035, 0.0175), LINE]);
  return encodePng(size, draw(size, [[roundRect(0.06, 0.06, 0.94, 0.94, 0.18), hex('#1e5aa8')], [receipt(0.28, 0.2, 0.72, 0.8, 5), WHITE], ...lines]));
}

export const TRAY_COLOURS = { ok: '#2e7d32', warn: '#d48806', error: '#c62828' };

/** The tray icon: a receipt on a round badge of the state's colour. */
export function trayIcon(size, state) {
  const circle = (x, y) => (x - 0.5) ** 2 + (y - 0.5) ** 2 <= 0.48 ** 2;
  return encodePng(size, draw(size, [[circle, hex(TRAY_COLOURS[state])], [receipt(0.3, 0.2, 0.7, 0.8, 3), WHITE]]));
}

/** Every icon file: name → PNG bytes. */
export function allIcons() {
  const files = { 'icon.png': appIcon(1024) };
  for (const state of Object.keys(TRAY_COLOURS)) {
    files[`tray-${state}.png`] = trayIcon(16, state);
    files[`tray-${state}@2x.png`] = trayIcon(32, state);
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(ICONS_DIR, { recursive: true });
  for (const [name, png] of Object.entries(allIcons())) {
    writeFileSync(join(ICONS_DIR, name), png);
    console.log(`icons: build/icons/${name} (${png.length} bytes)`);
  }
}
