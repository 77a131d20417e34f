/** The smallest real PNG (1×1): what tests upload where an image is checked by its bytes. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fe0dd14a9b0000000049454e44ae426082',
  'hex',
);
