import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  LEARNING_MESSAGES as L,
  SCORM_MESSAGES as S,
  SCORM_PACKAGE_PROBLEMS,
  type ScormLaunch,
  type ScormLearnerState,
  type ScormPackageInfo,
} from '@lms/contract';
import type { StoredSco } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { ensurePrivateDir } from '../../lib/privateFiles.js';
import { iso, type Clock } from '../../platform/clock.js';
import { HttpError, notFound, unprocessable } from '../../platform/errors.js';
import type { FileStore } from '../../platform/fileStore/fileStore.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { CourseStructureRepository } from '../courses/structure.js';
import type { LearningService } from '../learning/service.js';
import type { UsersRepository } from '../users/repository.js';
import { BadCommit, outcome, readCommit, resumeCmi } from './cmi.js';
import { LAUNCH_SECONDS, readLaunch, signLaunch, type LaunchClaims } from './launchToken.js';
import { readPackage } from './package/manifest.js';
import { PackageRefused, unpackPackage } from './package/unpack.js';
import type { PackageRow, RunRow, ScormRepository } from './repository.js';
import { summarize, type ScormResults } from './results.js';
import { receiveFile, TooLarge } from './receive.js';
import { runtimeScript } from './runtime.js';
import { packageKey, removePackage, storePackage } from './packageFiles.js';

export interface ScormSettings {
  /** Packages are received and unpacked under DATA_DIR, then kept in the store. */
  dataDir: string;
  store: FileStore;
  secret: string;
  /** CONTENT_URL's origin, or undefined: the platform's own, in a sandbox without same-origin. */
  contentOrigin: string | undefined;
  /** The lesson page's origin when known (PUBLIC_URL): the only window told about commits. */
  appOrigin: string | undefined;
  uploadBytes: number;
}

/** What a content request resolves to: the store's key of the file asked for. */
export interface ContentTarget {
  key: string;
  /** The SCO's launch document: the runtime's script goes into it. */
  launchDocument: boolean;
}

/** The iframe's sandbox: scripts and forms run, the top window cannot be navigated. */
const SANDBOX = 'allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/**
 * SCORM packages as lessons (docs/rules.md §SCORM packages): versions uploaded by authors, launches
 * of one SCO by a learner, commits of the runtime's data and what they mean for the lesson's record.
 */
export class ScormService {
  /** Where archives are received and unpacked before their files go to the store. */
  readonly #incoming: string;
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: ScormRepository,
    private readonly results: ScormResults,
    private readonly structure: CourseStructureRepository,
    private readonly learning: LearningService,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly settings: ScormSettings,
  ) {
    this.#incoming = join(settings.dataDir, '.scorm-incoming');
    ensurePrivateDir(this.#incoming);
  }

  /** The iframe's sandbox attribute: same-origin only on a content origin of its own. */
  get sandbox(): string {
    return this.settings.contentOrigin ? `${SANDBOX} allow-same-origin` : SANDBOX;
  }

  hasPackage(lessonId: number): Promise<boolean> {
    return this.repo.current(lessonId).then((p) => p !== undefined);
  }

  private async scormLesson(courseId: number, lessonId: number) {
    const lesson = await this.structure.lesson(courseId, lessonId);
    if (!lesson) throw notFound(L.lessonNotFound);
    if (lesson.kind !== 'scorm') throw unprocessable(S.notScorm, { lesson: [S.notScorm] });
    return lesson;
  }

  async versions(courseId: number, lessonId: number): Promise<ScormPackageInfo[]> {
    await this.scormLesson(courseId, lessonId);
    const rows = await this.repo.versions(lessonId);
    return rows.map((r) => ({
      ...packageInfo(r),
      uploaded_by: r.uploader_first === null ? null : `${r.uploader_first} ${r.uploader_last ?? ''}`.trim(),
      learners: Number(r.learners ?? 0),
    }));
  }

  /**
   * A new version (docs/rules.md §SCORM packages): the archive streamed to disk, unpacked under
   * limits, its manifest read; refused with the problem named, leaving nothing behind. Learners'
   * runs of earlier versions stay as they are.
   */
  async upload(
    user: SessionUser,
    courseId: number,
    lessonId: number,
    file: { stream: Readable; filename: string },
  ): Promise<{ info: ScormPackageInfo; replaced: boolean }> {
    await this.scormLesson(courseId, lessonId);
    const folder = `p${randomBytes(12).toString('hex')}`;
    const incoming = this.#incoming;
    await mkdir(incoming, { recursive: true, mode: 0o700 });
    const zipPath = join(incoming, `${folder}.zip`);
    const target = join(incoming, folder);
    let stored = false;
    try {
      const size = await receiveFile(file.stream, zipPath, this.settings.uploadBytes);
      const unpacked = await unpackPackage(zipPath, target);
      const manifest = await readPackage(target);
      const scos: StoredSco[] = manifest.scos.map((s) => ({ ...s }));
      stored = true;
      await storePackage(this.settings.store, target, folder);
      const row = await this.uow.run(async () => {
        const current = await this.repo.current(lessonId);
        const now = iso(this.clock.now());
        const inserted = await this.repo.insertPackage({
          lesson_id: lessonId,
          version: (current?.version ?? 0) + 1,
          standard: manifest.standard,
          edition: manifest.edition,
          title: manifest.title,
          scos: JSON.stringify(scos),
          folder,
          original_filename: file.filename.slice(0, 255) || 'package.zip',
          size,
          files: unpacked.files,
          unpacked_bytes: unpacked.bytes,
          uploaded_by: user.id,
          created_at: now,
          updated_at: now,
        });
        return { inserted, replaced: current !== undefined };
      });
      const info = { ...packageInfo(row.inserted), uploaded_by: `${user.first_name} ${user.last_name}`, learners: 0 };
      return { info, replaced: row.replaced };
    } catch (error) {
      if (stored) await removePackage(this.settings.store, folder);
      if (error instanceof TooLarge) throw new HttpError(413, SCORM_PACKAGE_PROBLEMS['too-big-upload']);
      if (error instanceof PackageRefused) {
        const text = SCORM_PACKAGE_PROBLEMS[error.problem];
        const named = error.detail && (error.problem === 'missing-file' || error.problem === 'unsafe-name');
        const message = named ? `${text}: ${error.detail}` : text;
        throw unprocessable(message, { file: [message] });
      }
      throw error;
    } finally {
      await rm(zipPath, { force: true });
      await rm(target, { recursive: true, force: true });
    }
  }

  /** The lesson as the learner may reach it (as a lesson: docs/rules.md §Visibility), and its package. */
  private async reachable(user: SessionUser, courseId: number, lessonId: number) {
    const { state, outline } = await this.learning.seen(user, courseId);
    const item = outline.flatMap((m) => m.items).find((i) => i.type === 'lesson' && i.id === lessonId);
    if (!item) throw notFound(L.lessonNotFound);
    if (item.kind !== 'scorm') throw unprocessable(S.notScorm, { lesson: [S.notScorm] });
    const since = state.cycle > 1 ? state.cycle_start : null;
    const lessonState = state.items.find((i) => i.type === 'lesson' && i.id === lessonId);
    return { item, since, completedAt: lessonState?.completed_at ?? null, pack: await this.repo.current(lessonId) };
  }

  async state(user: SessionUser, courseId: number, lessonId: number): Promise<ScormLearnerState> {
    const { item, since, completedAt, pack } = await this.reachable(user, courseId, lessonId);
    const result = (await this.results.of(user.id, [lessonId], since)).get(lessonId);
    const runs = pack && result?.version === pack.version ? result.runs : new Map<string, RunRow>();
    return {
      lesson_id: lessonId,
      name: item.name,
      version: pack?.version ?? null,
      standard: pack?.standard ?? null,
      scos: (pack?.scos ?? []).map((s) => {
        const run = runs.get(s.identifier);
        return {
          identifier: s.identifier,
          title: s.title,
          status: run?.status ?? 'not_started',
          score: run?.score ?? null,
        };
      }),
      // The lesson's record decides (a version played before a replacement still counts).
      status: completedAt !== null ? 'completed' : (result?.status ?? 'not_started'),
      score: result?.score ?? null,
      completed_at: completedAt,
    };
  }

  /**
   * Opens one SCO of the current version: the run of this cycle is resumed (its earlier session's
   * time added to the total) or started, the lesson marked started, and a signed address returned.
   */
  async launch(user: SessionUser, courseId: number, lessonId: number, scoId: string | undefined): Promise<ScormLaunch> {
    const { since, pack } = await this.reachable(user, courseId, lessonId);
    if (!pack) throw unprocessable(S.noPackage, { lesson: [S.noPackage] });
    const sco = scoId === undefined ? pack.scos[0] : pack.scos.find((s) => s.identifier === scoId);
    if (!sco) throw notFound(S.scoNotFound);
    const now = iso(this.clock.now());
    const run = await this.uow.run(async () => {
      const existing = (await this.repo.runs(user.id, lessonId, since)).find(
        (r) => r.package_id === pack.id && r.sco === sco.identifier,
      );
      await this.learning.writeMark(user.id, courseId, lessonId, since, 'start');
      if (existing) {
        await this.repo.updateRun(existing.id, {
          total_seconds: existing.total_seconds + existing.session_seconds,
          session_seconds: 0,
          launches: existing.launches + 1,
          updated_at: now,
        });
        return existing;
      }
      // An asset has no runtime: opening it is doing it.
      const done = !sco.isSco;
      const inserted = await this.repo.insertRun({
        user_id: user.id,
        lesson_id: lessonId,
        package_id: pack.id,
        sco: sco.identifier,
        started_at: now,
        status: done ? 'completed' : 'in_progress',
        done_at: done ? now : null,
        launches: 1,
        created_at: now,
        updated_at: now,
      });
      if (done) await this.completeIfDone(inserted, courseId, since);
      return inserted;
    });
    const expires = Math.floor(this.clock.now().getTime() / 1000) + LAUNCH_SECONDS;
    const token = signLaunch(this.settings.secret, { runId: run.id, userId: user.id, expires });
    // The manifest reader wrote the launch address encoded (package/launch.ts).
    const path = `/scorm-content/${token}/pkg/${sco.launch}`;
    return {
      url: `${this.settings.contentOrigin ?? ''}${path}`,
      origin: this.settings.contentOrigin ?? 'null',
      sandbox: this.sandbox,
      sco: sco.identifier,
    };
  }

  /** The claims of a launch address, or a 404 (an expired or forged one is no address at all). */
  private claims(token: string): LaunchClaims {
    const claims = readLaunch(this.settings.secret, token, this.clock.now().getTime());
    if (!claims) throw notFound(S.sessionExpired);
    return claims;
  }

  private async launched(token: string): Promise<{ run: RunRow; pack: PackageRow; sco: StoredSco }> {
    const claims = this.claims(token);
    const run = await this.repo.run(claims.runId);
    const pack = run && (await this.repo.packageById(run.package_id));
    const sco = pack?.scos.find((s) => s.identifier === run?.sco);
    if (!run || run.user_id !== claims.userId || !pack || !sco) throw notFound(S.sessionExpired);
    return { run, pack, sco };
  }

  /** A file of the launched package: the folder and the path inside it (checked again when opened). */
  async content(token: string, path: string): Promise<ContentTarget> {
    const { pack, sco } = await this.launched(token);
    const normalised = path.replace(/^\/+/, '');
    return { key: packageKey(pack.folder, normalised), launchDocument: normalised === sco.path };
  }

  /** A package's file in the store (the key comes from `content`), or null. */
  open(key: string) {
    return this.settings.store.open(key);
  }

  /** The runtime of a launch, with the data the session starts from. */
  async runtime(token: string): Promise<string> {
    const { run, pack, sco } = await this.launched(token);
    const learner = await this.users.find(run.user_id);
    return runtimeScript({
      standard: pack.standard,
      cmi: resumeCmi({
        standard: pack.standard,
        sco,
        learner: { id: run.user_id, firstName: learner?.first_name ?? '', lastName: learner?.last_name ?? '' },
        run: { cmi: run.cmi, exit: run.exit, totalSeconds: run.total_seconds, launches: run.launches },
      }),
      commitUrl: `/scorm-content/${token}/lms/commit`,
      parentOrigin: this.settings.appOrigin ?? '*',
    });
  }

  /**
   * A commit of the runtime's data (as the runtime sends it: the whole CMI): stored on the run, and
   * when the package's items are all done in the cycle, the lesson is completed — in one transaction.
   */
  async commit(token: string, body: unknown): Promise<boolean> {
    const { run, pack, sco } = await this.launched(token);
    let facts;
    try {
      facts = readCommit(pack.standard, body);
    } catch (error) {
      if (error instanceof BadCommit) return false;
      throw error;
    }
    const judged = outcome(pack.standard, facts, sco);
    const now = iso(this.clock.now());
    const courseId = await this.structure.lessonCourseId(run.lesson_id);
    await this.uow.run(async () => {
      const done = run.status === 'completed' || judged.status === 'completed';
      await this.repo.updateRun(run.id, {
        status: done ? 'completed' : judged.status,
        completion_status: judged.completion,
        success_status: judged.success,
        score: judged.score,
        done_at: run.done_at ?? (done ? now : null),
        location: facts.location,
        suspend_data: facts.suspendData,
        exit: facts.exit,
        session_seconds: facts.sessionSeconds,
        cmi: JSON.stringify(facts.kept),
        updated_at: now,
      });
      if (done && courseId !== undefined) {
        const since = await this.learning.cycleSince(run.user_id, courseId);
        await this.completeIfDone(run, courseId, since);
      }
    });
    return true;
  }

  /** The lesson is completed once every launchable item of the run's version is done in the cycle. */
  private async completeIfDone(run: RunRow, courseId: number, since: string | null): Promise<void> {
    const runs = await this.repo.runs(run.user_id, run.lesson_id, since);
    const pack = await this.repo.packageById(run.package_id);
    // Read in the caller's transaction: the run's own change is among them.
    const ofVersion = runs.filter((r) => r.package_id === run.package_id);
    if (summarize(ofVersion, pack).status !== 'completed') return;
    await this.learning.writeMark(run.user_id, courseId, run.lesson_id, since, 'complete');
  }
}

const packageInfo = (r: PackageRow): Omit<ScormPackageInfo, 'uploaded_by' | 'learners'> => ({
  version: r.version,
  standard: r.standard,
  edition: r.edition,
  title: r.title,
  scos: r.scos.map((s) => ({ identifier: s.identifier, title: s.title })),
  mastery_score: masteryPercent(r.scos[0]),
  original_filename: r.original_filename,
  size: r.size,
  files: r.files,
  uploaded_at: r.created_at,
});

const masteryPercent = (sco: StoredSco | undefined): number | null => {
  if (!sco) return null;
  if (sco.masteryScore !== null) return sco.masteryScore;
  return sco.scaledPassingScore === null ? null : Math.round(sco.scaledPassingScore * 100);
};
