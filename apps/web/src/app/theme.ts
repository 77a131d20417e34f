import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** The one brand colour: a calm corporate blue. */
const brand: MantineColorsTuple = [
  '#e9f1ff',
  '#d3e0fb',
  '#a5bff2',
  '#749ceb',
  '#4b7ee4',
  '#316be1',
  '#2261e0',
  '#1451c7',
  '#0848b3',
  '#003d9f',
];

const fontFamily = "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
  fontFamily,
  headings: { fontFamily, fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Paper: { defaultProps: { radius: 'lg' } },
    // Initials avatars pick a colour by name; these keep the light variant at 4.5:1 contrast.
    Avatar: { defaultProps: { allowedInitialsColors: ['blue', 'indigo', 'violet', 'grape', 'pink', 'red'] } },
  },
});

/**
 * Mantine's default secondary text (gray.6 on white) is below the 4.5:1 contrast that WCAG AA asks
 * for small text; gray.7 meets it.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057' },
  dark: {},
});
