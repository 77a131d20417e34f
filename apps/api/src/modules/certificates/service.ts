import { randomInt } from 'node:crypto';
import { extname } from 'node:path';
import {
  CERTIFICATE_MESSAGES as C,
  CERTIFICATES_PER_PAGE,
  DEFAULT_CERTIFICATE_TITLE,
  type AdminCertificatesQuery,
  type CertificateItem,
  type CertificateSettings,
  type CertificateStatus,
  type CertificateVerification,
} from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { HttpError, notFound, unprocessable } from '../../platform/errors.js';
import type { PeopleTime } from '../../platform/peopleTime.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import type { SessionUser } from '../../platform/sessions.js';
import { storageUrl } from '../../platform/storageUrl.js';
import { inTeam, teamOf } from '../analytics/team.js';
import { fullName } from '../auth/permissions.js';
import type { CoursesRepository } from '../courses/repository.js';
import type { Storage } from '../files/storage.js';
import type { StoredState } from '../progress/engine.js';
import type { CompletionListener } from '../progress/states.js';
import type { UsersRepository } from '../users/repository.js';
import { renderCertificate } from './pdf.js';
import { searchText, type CertificateFilter, type CertificateRow, type CertificatesRepository } from './repository.js';

/** Characters of a number: no 0/O, 1/I (read aloud or typed from paper). */
const NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** 'C-XXXX-XXXX-XXXX': 12 characters of 32, 60 random bits, so numbers cannot be guessed. */
export function newCertificateNumber(): string {
  const group = () => Array.from({ length: 4 }, () => NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)]).join('');
  return `C-${group()}-${group()}-${group()}`;
}

/** Verifications per address and minute (the public page: numbers are not to be tried in bulk). */
export const VERIFICATIONS_PER_MINUTE = 30;

export interface CertificateDeps {
  uow: UnitOfWork;
  repo: CertificatesRepository;
  users: UsersRepository;
  courses: CoursesRepository;
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  people: PeopleTime;
  companyName: string;
  /** The address users open (PUBLIC_URL), for the link printed on the certificate. */
  publicUrl: string | undefined;
  /** The course's completed pairs of the current cycle (progress/states.ts), for issuing on enabling. */
  completedRows(courseId: number): Promise<StoredState[]>;
}

/**
 * Certificates of completion (docs/rules.md §Certificates): issued in the transaction that completes
 * a course (a `CompletionListener` of the learning state), one per learner, course and cycle, with
 * what they say copied in; printed as PDF on demand; verified by number by anyone.
 */
export class CertificatesService implements CompletionListener {
  constructor(private readonly d: CertificateDeps) {}

  private now(): string {
    return iso(this.d.clock.now());
  }

  /** Issues what the newly completed pairs earn (courses that give certificates). */
  async completed(rows: readonly StoredState[]): Promise<void> {
    await this.issue(rows);
  }

  private async issue(rows: readonly StoredState[]): Promise<number> {
    const settings = new Map(
      (await this.d.repo.enabledSettings([...new Set(rows.map((r) => r.course_id))])).map((s) => [s.course_id, s]),
    );
    const earning = rows.filter((r) => settings.has(r.course_id) && r.completed_at !== null);
    if (earning.length === 0) return 0;
    const learners = new Map(
      (await this.d.users.shownByIds([...new Set(earning.map((r) => r.user_id))], earning.length)).map((u) => [
        u.id,
        u,
      ]),
    );
    const titles = new Map((await this.d.courses.list([...settings.keys()])).map((c) => [c.id, c.title]));
    const now = this.now();
    const certificates = earning.flatMap((r) => {
      const learner = learners.get(r.user_id);
      const s = settings.get(r.course_id);
      const title = titles.get(r.course_id);
      if (!learner || !s || title === undefined || r.completed_at === null) return [];
      const number = newCertificateNumber();
      const name = fullName(learner);
      return [
        {
          number,
          user_id: r.user_id,
          course_id: r.course_id,
          cycle: r.cycle,
          learner_name: name,
          search_text: searchText(`${name} ${number}`),
          course_title: title,
          title: s.title,
          signer_name: s.signer_name,
          signer_position: s.signer_position,
          logo_path: s.logo_path,
          completed_at: r.completed_at,
          valid_until: r.valid_until,
          issued_at: now,
        },
      ];
    });
    return this.d.repo.insertMany(certificates);
  }

  async settings(courseId: number): Promise<CertificateSettings> {
    if (!(await this.d.courses.detail(courseId))) throw notFound(C.notFound);
    const s = await this.d.repo.settings(courseId);
    return {
      enabled: s?.enabled ?? false,
      title: s?.title ?? DEFAULT_CERTIFICATE_TITLE,
      signer_name: s?.signer_name ?? null,
      signer_position: s?.signer_position ?? null,
      logo: storageUrl(s?.logo_path ?? null),
    };
  }

  /**
   * Saves a course's settings; switching them on issues certificates to the learners whose current
   * cycle is already complete (they earned it as much as the next ones). Returns how many.
   */
  async saveSettings(
    user: SessionUser,
    courseId: number,
    input: {
      enabled: boolean;
      title: string;
      signer_name?: string | null;
      signer_position?: string | null;
      logo?: null;
    },
  ): Promise<{ settings: CertificateSettings; issued: number }> {
    if (!(await this.d.courses.detail(courseId))) throw notFound(C.notFound);
    const issued = await this.d.uow.run(async () => {
      const before = await this.d.repo.settings(courseId);
      await this.d.repo.saveSettings({
        course_id: courseId,
        enabled: input.enabled,
        title: input.title,
        signer_name: input.signer_name === undefined ? (before?.signer_name ?? null) : input.signer_name || null,
        signer_position:
          input.signer_position === undefined ? (before?.signer_position ?? null) : input.signer_position || null,
        logo_path: input.logo === null ? null : (before?.logo_path ?? null),
        updated_by: user.id,
        updated_at: this.now(),
      });
      if (!input.enabled || before?.enabled) return 0;
      return this.issue(await this.d.completedRows(courseId));
    });
    return { settings: await this.settings(courseId), issued };
  }

  /** The logo: an image already stored (the upload route checks it by content). */
  async setLogo(user: SessionUser, courseId: number, path: string): Promise<CertificateSettings> {
    const current = await this.settings(courseId);
    const before = await this.d.repo.settings(courseId);
    await this.d.repo.saveSettings({
      course_id: courseId,
      enabled: current.enabled,
      title: current.title,
      signer_name: current.signer_name,
      signer_position: current.signer_position,
      logo_path: path,
      updated_by: user.id,
      updated_at: before?.updated_at ?? this.now(),
    });
    return this.settings(courseId);
  }

  statusOf(row: Pick<CertificateRow, 'revoked_at' | 'valid_until'>): CertificateStatus {
    if (row.revoked_at !== null) return 'revoked';
    return row.valid_until !== null && row.valid_until <= this.now() ? 'expired' : 'valid';
  }

  item(row: CertificateRow): CertificateItem {
    return {
      number: row.number,
      title: row.title,
      user_id: row.user_id,
      learner_name: row.learner_name,
      course_id: row.course_id,
      course_title: row.course_title,
      completed_at: row.completed_at,
      valid_until: row.valid_until,
      issued_at: row.issued_at,
      status: this.statusOf(row),
      revoked_at: row.revoked_at,
      revoke_reason: row.revoke_reason,
      department: row.department,
      pdf_url: `/api/certificates/${row.number}/pdf`,
      verify_url: `/verify/${row.number}`,
    };
  }

  async mine(user: SessionUser): Promise<CertificateItem[]> {
    return (await this.d.repo.ofUser(user.id)).map((r) => this.item(r));
  }

  /** An employee's certificates for the analytics card: only someone in the viewer's team. */
  async ofEmployee(viewer: SessionUser, userId: number): Promise<CertificateItem[]> {
    const user = await this.d.users.find(userId);
    if (!user || !inTeam(teamOf(viewer), user)) throw notFound(C.notFound);
    return (await this.d.repo.ofUser(userId)).map((r) => this.item(r));
  }

  async page(query: AdminCertificatesQuery) {
    const { page, ...filter } = query;
    const { rows, total } = await this.d.repo.page(filter, page, this.now());
    return { items: rows.map((r) => this.item(r)), total, page, per_page: CERTIFICATES_PER_PAGE };
  }

  /** Every certificate the filters find, in batches (the export, the archive). */
  batches(filter: CertificateFilter): AsyncGenerator<CertificateRow[]> {
    return this.d.repo.batches(filter, this.now());
  }

  /** The PDF: for its learner, for who follows them in analytics, for admins; else as if missing. */
  async pdfFor(
    viewer: SessionUser,
    number: string,
    requestOrigin: string,
  ): Promise<{ bytes: Uint8Array; row: CertificateRow }> {
    const row = await this.d.repo.byNumber(number);
    if (!row) throw notFound(C.notFound);
    if (row.user_id !== viewer.id) {
      const owner = await this.d.users.find(row.user_id);
      // A deleted employee's certificates stay with the admins (they answer inspectors).
      const allowed = owner ? inTeam(teamOf(viewer), owner) : teamOf(viewer).kind === 'company';
      if (!allowed) throw notFound(C.notFound);
    }
    return { bytes: await this.pdf(row, requestOrigin), row };
  }

  /** The document; its link is on PUBLIC_URL, else on the address the request came to. */
  async pdf(row: CertificateRow, requestOrigin: string): Promise<Uint8Array> {
    const day = (value: string) => this.d.people.date(value);
    return renderCertificate({
      number: row.number,
      learnerName: row.learner_name,
      courseTitle: row.course_title,
      title: row.title,
      completedOn: day(row.completed_at),
      validUntil: row.valid_until === null ? null : day(row.valid_until),
      signerName: row.signer_name,
      signerPosition: row.signer_position,
      companyName: this.d.companyName,
      logo: await this.logo(row.logo_path),
      verifyUrl: `${this.d.publicUrl ?? requestOrigin}/verify/${row.number}`,
    });
  }

  private async logo(path: string | null): Promise<{ bytes: Uint8Array; type: 'png' | 'jpeg' } | null> {
    if (!path) return null;
    const ext = extname(path).toLowerCase();
    if (!['.png', '.jpg', '.jpeg'].includes(ext)) return null;
    const bytes = await this.d.storage.read(path);
    return bytes ? { bytes, type: ext === '.png' ? 'png' : 'jpeg' } : null;
  }

  /** The public check: rate limited per address; a number that is not one answers as a missing one. */
  async verify(number: string, ip: string): Promise<CertificateVerification> {
    const hits = await this.d.limiter.hit(`certificate-verify:${ip}`, this.d.clock.now(), 60_000);
    if (hits > VERIFICATIONS_PER_MINUTE) throw new HttpError(429, 'Слишком много проверок. Попробуйте через минуту');
    const row = await this.d.repo.byNumber(number);
    if (!row) throw notFound(C.notFound);
    return {
      number: row.number,
      status: this.statusOf(row),
      title: row.title,
      learner_name: row.learner_name,
      course_title: row.course_title,
      completed_at: row.completed_at,
      valid_until: row.valid_until,
      issued_at: row.issued_at,
      revoked_at: row.revoked_at,
      revoke_reason: row.revoke_reason,
      company_name: this.d.companyName,
    };
  }

  async revoke(admin: SessionUser, number: string, reason: string): Promise<CertificateItem> {
    const row = await this.d.repo.byNumber(number);
    if (!row) throw notFound(C.notFound);
    if (!(await this.d.repo.revoke(row.id, admin.id, reason, this.now()))) {
      throw unprocessable(C.alreadyRevoked, { number: [C.alreadyRevoked] });
    }
    const after = await this.d.repo.byNumber(number);
    return this.item(after ?? row);
  }
}
