import { resolve } from 'node:path';
import { isTimeZone } from '@lms/contract';
import { z } from 'zod';
import type { S3Settings } from './platform/fileStore/s3Store.js';
import { parseDrainMs } from './platform/shutdown.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Days of the week as DIGEST_DAY names them, Monday first (ISO 8601: Monday is 1). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  COMPANY_NAME: z.string().min(1).default('Корпоративная академия'),
  LOGIN_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'LOGIN_DOMAIN must be a mail domain such as company.ru')
    .default('company.ru'),
  PUBLIC_URL: z.string().url().optional(),
  /** A second address of this server for SCORM packages' files (issue 34): their own origin. */
  CONTENT_URL: z
    .string()
    .url()
    .refine((v) => /^https?:/.test(v), 'CONTENT_URL must be an http(s) address')
    .optional(),
  /** Where files live (issue 36): unset for DATA_DIR's folders, or s3://bucket/prefix. */
  STORAGE_URL: z
    .string()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/,
      'STORAGE_URL must look like s3://bucket or s3://bucket/prefix',
    )
    .optional()
    .or(z.literal('')),
  /** The S3-compatible service's address; unset means AWS itself. */
  S3_ENDPOINT: z.string().url().optional().or(z.literal('')),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** bucket in the path (MinIO, Ceph and most S3-compatible services) instead of the host name. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  APP_SECRET: z.string().min(32).optional(),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAIL_HOST: z.string().optional(),
  MAIL_PORT: z.coerce.number().int().positive().default(587),
  MAIL_USER: z.string().optional(),
  MAIL_PASSWORD: z.string().optional(),
  MAIL_FROM: z.string().optional(),
  MAIL_SECURE: bool.default(false),
  TRUST_PROXY: z.string().default('false'),
  /** How long in-flight requests may take after SIGTERM before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.string().optional(),
  /** How long each check of GET /readyz (database, storage) may take before it answers 503. */
  READYZ_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
  /** Opens GET /metrics on the main port to `Authorization: Bearer <token>`; unset, it answers 404 there. */
  METRICS_TOKEN: z.string().min(32, 'METRICS_TOKEN must be at least 32 characters').optional().or(z.literal('')),
  /** A listener of its own serving only GET /metrics, without a token: an address only Prometheus reaches. */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Deadline reminders and managers' weekly digests by mail (issue 16); 'off' stops the pass. */
  REMINDERS: z.enum(['on', 'off']).default('on'),
  REMINDERS_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  /** Reminder mails one pass claims at most; when they are handed to the mailer the next pass follows. */
  REMINDERS_PER_PASS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** The company's time zone: every date the server writes for people (mails, exports, analytics). */
  TIMEZONE: z
    .string()
    .default('Europe/Moscow')
    .refine(isTimeZone, 'TIMEZONE must be an IANA time zone such as Europe/Moscow'),
  /** The weekly digest goes out on this day at this hour of TIMEZONE. */
  DIGEST_DAY: z
    .string()
    .default('monday')
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(WEEKDAYS, { error: 'DIGEST_DAY must be a day of the week in English: monday … sunday' })),
  DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(9),
  /** How long a mail that cannot be delivered is retried before it is marked as not sent. */
  MAIL_RETRY_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /** Directory sync (Active Directory / LDAP, issue 32): off unless LDAP_URL is set. */
  LDAP_URL: z
    .string()
    .regex(/^ldaps?:\/\/[^\s/]+\/?$/i, 'LDAP_URL must look like ldap://dc.company.ru or ldaps://dc.company.ru:636')
    .optional(),
  LDAP_BIND_DN: z.string().optional(),
  LDAP_BIND_PASSWORD: z.string().optional(),
  LDAP_BASE_DN: z.string().optional(),
  /** Whose entries are employees; Active Directory's people by default. */
  LDAP_USER_FILTER: z.string().default('(&(objectClass=user)(objectCategory=person))'),
  /** Which of them are disabled: Active Directory's userAccountControl bit 2 by default. */
  LDAP_DISABLED_FILTER: z.string().default('(userAccountControl:1.2.840.113556.1.4.803:=2)'),
  LDAP_STARTTLS: bool.default(false),
  /** A PEM file of the certificate authority that signed the directory's certificate (ldaps, StartTLS). */
  LDAP_CA_FILE: z.string().optional(),
  /** The attribute that identifies an entry for good (survives renames and moves). */
  LDAP_ATTR_ID: z.string().default('objectGUID'),
  LDAP_ATTR_EMAIL: z.string().default('mail'),
  LDAP_ATTR_FIRST_NAME: z.string().default('givenName'),
  LDAP_ATTR_LAST_NAME: z.string().default('sn'),
  LDAP_ATTR_DEPARTMENT: z.string().default('department'),
  LDAP_ATTR_POSITION: z.string().default('title'),
  LDAP_ATTR_MANAGER: z.string().default('manager'),
  /** The department is the entry's nearest organizational unit (ou=…) instead of an attribute. */
  LDAP_DEPARTMENT_FROM_OU: bool.default(false),
  /** Entries per page of the search (Active Directory returns at most 1 000). */
  LDAP_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(500),
  /** Passwords on the sign-in form checked by a bind to the directory (issue 33); needs LDAP_URL. */
  LDAP_AUTH: z.enum(['on', 'off']).default('off'),
  /** Minutes between scheduled syncs; 0: only the admins' 'Синхронизировать' button. */
  LDAP_SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  /** Sign-in through the company's OpenID Connect provider (issue 33): off unless issuer and client id are set. */
  OIDC_ISSUER: z.string().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  /** Empty: a public client (PKCE only, no client authentication at the token endpoint). */
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_BUTTON_LABEL: z.string().trim().min(1).max(80).default('Войти через корпоративный аккаунт'),
  OIDC_SCOPES: z.string().default('openid email profile'),
  OIDC_CLAIM_EMAIL: z.string().min(1).default('email'),
  OIDC_CLAIM_FIRST_NAME: z.string().min(1).default('given_name'),
  OIDC_CLAIM_LAST_NAME: z.string().min(1).default('family_name'),
  OIDC_CLAIM_DEPARTMENT: z.string().min(1).default('department'),
  OIDC_CLAIM_POSITION: z.string().min(1).default('position'),
  /** Unknown people who sign in get an account (role learner); off by default: an admin decides who is in. */
  OIDC_CREATE_USERS: bool.default(false),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  companyName: string;
  loginDomain: string;
  publicUrl: string | undefined;
  /**
   * Where SCORM packages' files are served (CONTENT_URL, no trailing slash): an origin of its own, so
   * a package runs with same-origin frames yet never on the platform's origin. Unset: the platform's
   * address, each package in a sandboxed frame without same-origin (docs/decisions.md §SCORM content).
   */
  contentUrl: string | undefined;
  /** Where uploaded files and SCORM packages live: DATA_DIR's folders, or an S3 bucket. */
  storage: StorageConfig;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  appSecret: string | undefined;
  webDist: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  /** How long each readiness check may take (READYZ_TIMEOUT_MS). */
  readyTimeoutMs: number;
  /** GET /metrics: the main port's bearer token, and the internal listener (null: none); neither, it is off. */
  metrics: { token: string | undefined; listener: { host: string; port: number } | null };
  /** false, the number of proxy hops in front, or the proxies' addresses (never 'trust anyone'). */
  trustProxy: false | number | string;
  /** IANA time zone of the company (TIMEZONE): dates written for people are in it. */
  timeZone: string;
  /** The periodic pass that sends reminders and digests: whether it runs, and how often. */
  reminders: { enabled: boolean; intervalMs: number; perPass: number };
  /** When the weekly digest goes out: ISO day of the week (1 = Monday) and hour, in `timeZone`. */
  digest: { weekday: number; hour: number };
  /** The directory sync's connection and mapping; null when LDAP_URL is not set. */
  directory: DirectoryConfig | null;
  /** Whether the sign-in form's passwords are also checked against the directory (LDAP_AUTH=on). */
  ldapAuth: boolean;
  /** Sign-in through an OpenID Connect provider; null when OIDC_ISSUER and OIDC_CLIENT_ID are not set. */
  oidc: OidcConfig | null;
  mail: {
    host: string | undefined;
    port: number;
    user: string | undefined;
    password: string | undefined;
    from: string;
    secure: boolean;
    /** How long an undeliverable mail is retried (MAIL_RETRY_HOURS), in ms. */
    retryMs: number;
  };
}

export type StorageConfig = { kind: 'folder' } | ({ kind: 's3' } & S3Settings);

export interface DirectoryConfig {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
  userFilter: string;
  disabledFilter: string;
  startTls: boolean;
  caFile: string | undefined;
  attributes: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
    department: string;
    position: string;
    /** Holds the DN of the person's line manager. */
    manager: string;
  };
  departmentFromOu: boolean;
  pageSize: number;
  /** 0: no scheduled sync. */
  intervalMs: number;
}

function storageConfig(e: z.infer<typeof envSchema>): StorageConfig {
  if (!e.STORAGE_URL) return { kind: 'folder' };
  const [, bucket = '', path = ''] = /^s3:\/\/([^/]+)\/?(.*)$/.exec(e.STORAGE_URL) ?? [];
  const prefix = path.replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint: e.S3_ENDPOINT || undefined,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** CONTENT_URL's origin: another host than the platform's, or its host would serve nothing else. */
function contentOrigin(e: z.infer<typeof envSchema>): string | undefined {
  if (!e.CONTENT_URL) return undefined;
  const content = new URL(e.CONTENT_URL);
  if (e.PUBLIC_URL && new URL(e.PUBLIC_URL).host.toLowerCase() === content.host.toLowerCase())
    throw new Error(
      'Invalid configuration:\nCONTENT_URL must name another host than PUBLIC_URL (a second name of this server)',
    );
  return content.origin;
}

function ldapAuth(e: z.infer<typeof envSchema>): boolean {
  if (e.LDAP_AUTH === 'on' && !e.LDAP_URL)
    throw new Error('Invalid configuration:\nLDAP_AUTH=on checks passwords against the directory: set LDAP_URL too');
  return e.LDAP_AUTH === 'on';
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Undefined: a public client, which proves itself with PKCE alone. */
  clientSecret: string | undefined;
  buttonLabel: string;
  scopes: string;
  claims: { email: string; firstName: string; lastName: string; department: string; position: string };
  /** Unknown people who sign in get an account (role learner) instead of a refusal. */
  createUsers: boolean;
}

/** Plain http only for a provider on this machine (tests, a local Keycloak): tokens never cross a network in the clear. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function oidcConfig(e: z.infer<typeof envSchema>): OidcConfig | null {
  const issuer = e.OIDC_ISSUER || undefined;
  const clientId = e.OIDC_CLIENT_ID || undefined;
  if (!issuer && !clientId) return null;
  const invalid = (why: string) => new Error(`Invalid configuration:\n${why}`);
  if (!issuer || !clientId) throw invalid('OIDC_ISSUER and OIDC_CLIENT_ID are set together (one of them is missing)');
  const url = URL.parse(issuer);
  if (!url) throw invalid("OIDC_ISSUER must be the provider's address, e.g. https://sso.company.ru/realms/staff");
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw invalid('OIDC_ISSUER must be an https:// address');
  }
  const scopes = e.OIDC_SCOPES.split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid')) throw invalid('OIDC_SCOPES must include openid');
  return {
    issuer,
    clientId,
    clientSecret: e.OIDC_CLIENT_SECRET || undefined,
    buttonLabel: e.OIDC_BUTTON_LABEL,
    scopes: scopes.join(' '),
    claims: {
      email: e.OIDC_CLAIM_EMAIL,
      firstName: e.OIDC_CLAIM_FIRST_NAME,
      lastName: e.OIDC_CLAIM_LAST_NAME,
      department: e.OIDC_CLAIM_DEPARTMENT,
      position: e.OIDC_CLAIM_POSITION,
    },
    createUsers: e.OIDC_CREATE_USERS,
  };
}

function directoryConfig(e: z.infer<typeof envSchema>): DirectoryConfig | null {
  if (!e.LDAP_URL) return null;
  const missing = (['LDAP_BIND_DN', 'LDAP_BIND_PASSWORD', 'LDAP_BASE_DN'] as const).filter((name) => !e[name]);
  if (missing.length > 0)
    throw new Error(`Invalid configuration:\nLDAP_URL is set, so ${missing.join(', ')} must be too`);
  return {
    url: e.LDAP_URL,
    bindDn: e.LDAP_BIND_DN ?? '',
    bindPassword: e.LDAP_BIND_PASSWORD ?? '',
    baseDn: e.LDAP_BASE_DN ?? '',
    userFilter: e.LDAP_USER_FILTER,
    disabledFilter: e.LDAP_DISABLED_FILTER,
    startTls: e.LDAP_STARTTLS,
    caFile: e.LDAP_CA_FILE || undefined,
    attributes: {
      id: e.LDAP_ATTR_ID,
      email: e.LDAP_ATTR_EMAIL,
      firstName: e.LDAP_ATTR_FIRST_NAME,
      lastName: e.LDAP_ATTR_LAST_NAME,
      department: e.LDAP_ATTR_DEPARTMENT,
      position: e.LDAP_ATTR_POSITION,
      manager: e.LDAP_ATTR_MANAGER,
    },
    departmentFromOu: e.LDAP_DEPARTMENT_FROM_OU,
    pageSize: e.LDAP_PAGE_SIZE,
    intervalMs: e.LDAP_SYNC_INTERVAL_MINUTES * 60_000,
  };
}

function metricsConfig(e: z.infer<typeof envSchema>): Config['metrics'] {
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    throw new Error('Invalid configuration:\nMETRICS_PORT must differ from PORT (a listener of its own)');
  return {
    token: e.METRICS_TOKEN || undefined,
    listener: e.METRICS_PORT === undefined ? null : { host: e.METRICS_HOST, port: e.METRICS_PORT },
  };
}

/** 'true' means one proxy in front: trusting every hop would let clients forge their address. */
function parseTrustProxy(value: string): false | number | string {
  const v = value.trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** Reads the environment once; every setting of the server comes from here. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const loginDomain = e.LOGIN_DOMAIN.toLowerCase();
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    companyName: e.COMPANY_NAME,
    loginDomain,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    contentUrl: contentOrigin(e),
    storage: storageConfig(e),
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    appSecret: e.APP_SECRET,
    webDist: resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: parseDrainMs(e.SHUTDOWN_TIMEOUT_MS),
    readyTimeoutMs: e.READYZ_TIMEOUT_MS,
    metrics: metricsConfig(e),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    reminders: {
      enabled: e.REMINDERS === 'on',
      intervalMs: e.REMINDERS_INTERVAL_MINUTES * 60_000,
      perPass: e.REMINDERS_PER_PASS,
    },
    timeZone: e.TIMEZONE,
    digest: { weekday: WEEKDAYS.indexOf(e.DIGEST_DAY) + 1, hour: e.DIGEST_HOUR },
    directory: directoryConfig(e),
    ldapAuth: ldapAuth(e),
    oidc: oidcConfig(e),
    mail: {
      host: e.MAIL_HOST || undefined,
      port: e.MAIL_PORT,
      user: e.MAIL_USER || undefined,
      password: e.MAIL_PASSWORD || undefined,
      from: e.MAIL_FROM ?? `${e.COMPANY_NAME} <noreply@${loginDomain}>`,
      secure: e.MAIL_SECURE,
      retryMs: e.MAIL_RETRY_HOURS * 3_600_000,
    },
  };
}
