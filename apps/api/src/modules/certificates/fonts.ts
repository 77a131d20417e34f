import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface CertificateFontFiles {
  /** Title and the learner's name. */
  serifBold: Uint8Array;
  /** The course title. */
  sansBold: Uint8Array;
  /** Everything else. */
  sans: Uint8Array;
}

/**
 * DejaVu comes from the npm package `dejavu-fonts-ttf` (a dependency of the API, free licence), so
 * the fonts ship with the app and nothing is fetched at run time; they cover Cyrillic, which the 14
 * standard PDF fonts do not.
 */
const require = createRequire(import.meta.url);
const FONT_PATHS = {
  serifBold: 'dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf',
  sansBold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  sans: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
} as const;

let loading: Promise<CertificateFontFiles> | undefined;

/** Read once per process: the files are about 2 MB together and the same for every certificate. */
export function certificateFontFiles(): Promise<CertificateFontFiles> {
  loading ??= loadFontFiles().catch((error: unknown) => {
    // A failed read (a broken install) is not cached, so that the next certificate tries again.
    loading = undefined;
    throw error;
  });
  return loading;
}

async function loadFontFiles(): Promise<CertificateFontFiles> {
  const [serifBold, sansBold, sans] = await Promise.all([
    readFile(require.resolve(FONT_PATHS.serifBold)),
    readFile(require.resolve(FONT_PATHS.sansBold)),
    readFile(require.resolve(FONT_PATHS.sans)),
  ]);
  return { serifBold, sansBold, sans };
}
