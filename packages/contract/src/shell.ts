import { z } from 'zod';

/**
 * Menu item of GET /api/menu. `icon` and `icon-active` are icon keys the client maps to
 * its bundled icon set (see apps/web/src/app/menuIcons.tsx).
 */
export const menuIconKeys = ['home', 'profile', 'analytics', 'management', 'settings'] as const;
export const menuItem = z.object({
  name: z.string(),
  link: z.string(),
  icon: z.string(),
  'icon-active': z.string(),
});
export type MenuItem = z.infer<typeof menuItem>;
export const menuResponse = z.object({ items: z.array(menuItem) });
export type MenuResponse = z.infer<typeof menuResponse>;

/** GET /ziggy: the server's named routes (uris without the leading slash). */
export const ziggyResponse = z.object({
  url: z.string(),
  port: z.number().int().nullable(),
  defaults: z.record(z.string(), z.string()),
  routes: z.record(z.string(), z.object({ uri: z.string(), methods: z.array(z.string()) })),
});
export type Ziggy = z.infer<typeof ziggyResponse>;

/** GET /api/config: public, no session needed. */
export const publicConfigResponse = z.object({
  company_name: z.string(),
  login_domain: z.string(),
  /** The company's IANA time zone (TIMEZONE): dates for people are that zone's calendar days. */
  time_zone: z.string(),
  /** The label of the corporate sign-in button (OIDC_BUTTON_LABEL); null when OpenID Connect is not configured. */
  oidc_label: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;

/** GET /storage/json/social.links.json */
export const socialLink = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
  link: z.string(),
  icon: z.string(),
});
export type SocialLink = z.infer<typeof socialLink>;
export const socialLinks = z.array(socialLink);
