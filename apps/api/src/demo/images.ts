import { deflateSync } from 'node:zlib';

/**
 * Small pictures for the demo data, drawn in code and encoded as real PNG files (8-bit RGB), so that
 * the demo needs no binary assets in the repository.
 */

type Rgb = readonly [number, number, number];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A raster to draw on; `png()` encodes it. */
export class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    this.fillRect(0, 0, width, height, background);
  }

  set(x: number, y: number, [r, g, b]: Rgb, alpha = 1): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 3;
    const p = this.pixels;
    p[i] = Math.round((p[i] ?? 0) * (1 - alpha) + r * alpha);
    p[i + 1] = Math.round((p[i + 1] ?? 0) * (1 - alpha) + g * alpha);
    p[i + 2] = Math.round((p[i + 2] ?? 0) * (1 - alpha) + b * alpha);
  }

  fillRect(x: number, y: number, w: number, h: number, color: Rgb, alpha = 1): this {
    for (let yy = Math.max(0, y); yy < Math.min(this.height, y + h); yy++)
      for (let xx = Math.max(0, x); xx < Math.min(this.width, x + w); xx++) this.set(xx, yy, color, alpha);
    return this;
  }

  strokeRect(x: number, y: number, w: number, h: number, color: Rgb, line = 2): this {
    this.fillRect(x, y, w, line, color);
    this.fillRect(x, y + h - line, w, line, color);
    this.fillRect(x, y, line, h, color);
    this.fillRect(x + w - line, y, line, h, color);
    return this;
  }

  fillCircle(cx: number, cy: number, r: number, color: Rgb, alpha = 1): this {
    for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++)
      for (let x = Math.floor(cx - r); x <= Math.ceil(cx + r); x++)
        if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) this.set(x, y, color, alpha);
    return this;
  }

  /** A diagonal gradient over the whole canvas. */
  gradient(from: Rgb, to: Rgb): this {
    const span = this.width + this.height;
    for (let y = 0; y < this.height; y++)
      for (let x = 0; x < this.width; x++) {
        const t = (x + y) / span;
        this.set(x, y, [
          from[0] + (to[0] - from[0]) * t,
          from[1] + (to[1] - from[1]) * t,
          from[2] + (to[2] - from[2]) * t,
        ]);
      }
    return this;
  }

  png(): Buffer {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bit depth
    header[9] = 2; // colour type: RGB
    // compression, filter and interlace methods stay 0
    const stride = this.width * 3;
    const raw = Buffer.alloc((stride + 1) * this.height);
    for (let y = 0; y < this.height; y++) {
      raw[y * (stride + 1)] = 0; // filter: none
      raw.set(this.pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
    }
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [52, 58, 64];
const GREY: Rgb = [206, 212, 218];
const LIGHT: Rgb = [241, 243, 245];
const GREEN: Rgb = [47, 158, 68];
const RED: Rgb = [224, 49, 49];
const BLUE: Rgb = [34, 139, 230];

/** A course cover: a gradient with a few soft shapes. */
export function coverPng(from: Rgb, to: Rgb, motif: 'circles' | 'bars' | 'grid' | 'waves' | 'dots'): Buffer {
  const c = new Canvas(640, 360).gradient(from, to);
  switch (motif) {
    case 'circles':
      c.fillCircle(500, 120, 110, WHITE, 0.18)
        .fillCircle(560, 270, 70, WHITE, 0.14)
        .fillCircle(90, 300, 45, WHITE, 0.12);
      break;
    case 'bars':
      for (let i = 0; i < 5; i++) c.fillRect(380 + i * 48, 300 - (i + 1) * 40, 32, (i + 1) * 40, WHITE, 0.22);
      break;
    case 'grid':
      for (let y = 0; y < 4; y++)
        for (let x = 0; x < 5; x++) c.fillRect(360 + x * 52, 70 + y * 52, 40, 40, WHITE, 0.1 + ((x + y) % 3) * 0.07);
      break;
    case 'waves':
      for (let x = 0; x < 640; x++) {
        const y1 = 250 + Math.round(30 * Math.sin(x / 60));
        const y2 = 290 + Math.round(24 * Math.sin(x / 45 + 1));
        c.fillRect(x, y1, 1, 360 - y1, WHITE, 0.12);
        c.fillRect(x, y2, 1, 360 - y2, WHITE, 0.12);
      }
      break;
    case 'dots':
      for (let y = 0; y < 6; y++) for (let x = 0; x < 8; x++) c.fillCircle(330 + x * 38, 60 + y * 44, 8, WHITE, 0.25);
      break;
  }
  c.fillRect(40, 40, 180, 14, WHITE, 0.85).fillRect(40, 66, 120, 10, WHITE, 0.6);
  return c.png();
}

/** A floor plan with the evacuation route (green), the exits and a 'you are here' mark (red). */
export function evacuationPlanPng(): Buffer {
  const c = new Canvas(640, 400, WHITE);
  c.strokeRect(20, 20, 600, 360, INK, 4);
  // rooms along the corridor
  for (let i = 0; i < 4; i++) {
    c.fillRect(24 + i * 149, 24, 145, 140, LIGHT).strokeRect(20 + i * 149, 20, 153, 148, INK, 3);
    c.fillRect(24 + i * 149, 236, 145, 140, LIGHT).strokeRect(20 + i * 149, 232, 153, 148, INK, 3);
    c.fillRect(80 + i * 149, 165, 40, 3, WHITE).fillRect(80 + i * 149, 232, 40, 3, WHITE); // doors
  }
  // corridor route to both exits
  c.fillRect(60, 194, 520, 10, GREEN);
  for (let k = 0; k < 3; k++) {
    c.fillRect(40 + k * 6, 188 + k * 2, 6, 22 - k * 4, GREEN);
    c.fillRect(594 - k * 6, 188 + k * 2, 6, 22 - k * 4, GREEN);
  }
  c.fillRect(4, 180, 18, 40, GREEN).fillRect(618, 180, 18, 40, GREEN); // exits
  c.fillCircle(320, 120, 14, RED).fillCircle(320, 120, 6, WHITE);
  // extinguishers
  for (const x of [180, 460]) c.fillRect(x, 174, 12, 16, RED);
  return c.png();
}

/** A mock e-mail with the signs of phishing highlighted. */
export function phishingMailPng(): Buffer {
  const c = new Canvas(640, 400, LIGHT);
  c.fillRect(40, 30, 560, 340, WHITE).strokeRect(40, 30, 560, 340, GREY, 2);
  c.fillRect(40, 30, 560, 44, [233, 236, 239]);
  c.fillCircle(70, 52, 12, GREY);
  c.fillRect(94, 44, 200, 10, INK).fillRect(94, 58, 140, 6, GREY);
  c.strokeRect(90, 40, 214, 28, RED, 3); // suspicious sender
  for (let i = 0; i < 5; i++) c.fillRect(70, 100 + i * 26, 480 - (i % 2) * 90, 10, GREY);
  c.fillRect(70, 240, 220, 36, BLUE).strokeRect(64, 234, 232, 48, RED, 3); // 'click here' button
  c.fillRect(70, 300, 160, 10, GREY).fillRect(70, 320, 110, 10, GREY);
  c.fillCircle(560, 258, 18, RED).fillRect(557, 246, 6, 16, WHITE).fillRect(557, 266, 6, 5, WHITE);
  return c.png();
}

/** A mock of a web application screen (top bar, side menu, cards); used for the product and the CRM. */
export function dashboardPng(accent: Rgb): Buffer {
  const c = new Canvas(640, 400, LIGHT);
  c.fillRect(0, 0, 640, 48, accent).fillRect(20, 18, 110, 12, WHITE, 0.9);
  c.fillRect(0, 48, 150, 352, WHITE);
  for (let i = 0; i < 6; i++) c.fillRect(20, 74 + i * 34, 100 - (i % 3) * 14, 10, i === 1 ? accent : GREY);
  for (let i = 0; i < 3; i++) {
    c.fillRect(170 + i * 154, 70, 140, 90, WHITE).fillRect(186 + i * 154, 88, 60, 8, GREY);
    c.fillRect(186 + i * 154, 110, 90, 22, accent, 0.85);
  }
  c.fillRect(170, 180, 448, 196, WHITE);
  for (let i = 0; i < 10; i++) {
    const h = 30 + ((i * 37) % 110);
    c.fillRect(196 + i * 40, 356 - h, 24, h, accent, 0.35 + (i % 4) * 0.15);
  }
  return c.png();
}

/** A 2 x 2 matrix (interests against positions) for the negotiation course. */
export function matrixPng(): Buffer {
  const c = new Canvas(640, 400, WHITE);
  const colors: Rgb[] = [
    [211, 249, 216],
    [255, 236, 153],
    [255, 216, 168],
    [255, 201, 201],
  ];
  for (let i = 0; i < 4; i++) {
    const x = 80 + (i % 2) * 260;
    const y = 30 + Math.floor(i / 2) * 170;
    c.fillRect(x, y, 250, 160, colors[i] ?? LIGHT).fillRect(x + 20, y + 20, 130, 12, INK, 0.7);
    c.fillRect(x + 20, y + 44, 180, 8, INK, 0.25).fillRect(x + 20, y + 60, 150, 8, INK, 0.25);
  }
  c.fillRect(60, 30, 4, 340, INK).fillRect(60, 366, 540, 4, INK);
  c.fillRect(56, 30, 12, 4, INK).fillRect(596, 362, 4, 12, INK);
  return c.png();
}
