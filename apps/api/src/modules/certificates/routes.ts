import { PassThrough } from 'node:stream';
import {
  CERTIFICATE_MESSAGES as C,
  CERTIFICATES_PER_ARCHIVE,
  IMAGE_MAX_BYTES,
  adminCertificatesQuery,
  adminCertificatesResponse,
  analyticsUserParams,
  certificateParams,
  certificateSettingsParams,
  certificateSettingsResponse,
  certificateVerificationResponse,
  certificatesArchiveQuery,
  certificatesResponse,
  errorResponse,
  revokeCertificateRequest,
  revokeCertificateResponse,
  saveCertificateSettingsRequest,
  saveCertificateSettingsResponse,
} from '@lms/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import yazl from 'yazl';
import { unprocessable } from '../../platform/errors.js';
import { filePart } from '../files/uploadRoutes.js';
import type { Uploads } from '../files/uploads.js';
import { attachment } from '../exports/writer.js';
import type { CertificatesService } from './service.js';

/** A download: its own type and name, kept by no cache (the answer depends on who asks). */
function sendFile(reply: FastifyReply, body: Buffer | PassThrough, type: string, disposition: string) {
  return reply
    .header('content-type', type)
    .header('content-disposition', disposition)
    .header('cache-control', 'no-store')
    .send(body);
}

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 422: errorResponse, 429: errorResponse };
const ok = true as const;

/** Certificates (docs/product.md §Certificates): course settings, the learner's, the team's, the admin list, the public check. */
export const certificateRoutes =
  (deps: { certificates: CertificatesService; uploads: Uploads }): FastifyPluginAsyncZod =>
  async (app) => {
    const { certificates } = deps;
    const settingsPath = '/api/courses/:courseId/certificate';
    const constructor = { access: 'constructor.manage' as const };

    app.get(
      settingsPath,
      {
        config: { ...constructor, name: 'api.courses.certificate.show' },
        schema: {
          tags: ['constructor'],
          params: certificateSettingsParams,
          response: { 200: certificateSettingsResponse, ...errors },
        },
      },
      async (request) => ({ result: { success: ok, settings: await certificates.settings(request.params.courseId) } }),
    );

    app.put(
      settingsPath,
      {
        config: { ...constructor, name: 'api.courses.certificate.update' },
        schema: {
          tags: ['constructor'],
          params: certificateSettingsParams,
          body: saveCertificateSettingsRequest,
          response: { 200: saveCertificateSettingsResponse, ...errors },
        },
      },
      async (request) => {
        const user = await request.requireUser();
        const saved = await certificates.saveSettings(user, request.params.courseId, request.body);
        return { result: { success: ok, message: C.saved, ...saved } };
      },
    );

    app.post(
      `${settingsPath}/logo`,
      {
        config: { ...constructor, name: 'api.courses.certificate.logo' },
        schema: {
          tags: ['constructor'],
          params: certificateSettingsParams,
          response: { 200: saveCertificateSettingsResponse, ...errors },
        },
      },
      async (request) => {
        const user = await request.requireUser();
        const courseId = request.params.courseId;
        await certificates.settings(courseId);
        const part = await filePart(request, 'image', IMAGE_MAX_BYTES);
        const saved = await deps.uploads.save({
          stream: part.file,
          originalName: part.filename,
          folder: 'certificates',
          kind: 'image',
          maxBytes: IMAGE_MAX_BYTES,
          userId: user.id,
        });
        const settings = await certificates.setLogo(user, courseId, saved.file_path);
        return { result: { success: ok, message: C.logoSaved, settings, issued: 0 } };
      },
    );

    app.get(
      '/api/my/certificates',
      {
        config: { access: 'authenticated', name: 'api.my.certificates' },
        schema: { tags: ['profile'], response: { 200: certificatesResponse, ...errors } },
      },
      async (request) => ({ result: { success: ok, items: await certificates.mine(await request.requireUser()) } }),
    );

    app.get(
      '/api/analytics/users/:id/certificates',
      {
        config: { access: 'analytics.view', name: 'api.analytics.users.certificates' },
        schema: {
          tags: ['analytics'],
          params: analyticsUserParams,
          response: { 200: certificatesResponse, ...errors },
        },
      },
      async (request) => ({
        result: { success: ok, items: await certificates.ofEmployee(await request.requireUser(), request.params.id) },
      }),
    );

    app.get(
      '/api/admin/certificates',
      {
        config: { access: 'settings.manage', name: 'api.admin.certificates.index' },
        schema: {
          tags: ['settings'],
          querystring: adminCertificatesQuery,
          response: { 200: adminCertificatesResponse, ...errors },
        },
      },
      async (request) => ({ result: { success: ok, ...(await certificates.page(request.query)) } }),
    );

    app.get(
      '/api/admin/certificates/archive',
      {
        config: { access: 'settings.manage', name: 'api.admin.certificates.archive' },
        schema: {
          tags: ['settings'],
          summary: `The PDFs of the certificates the list's filters find, as one .zip (at most ${CERTIFICATES_PER_ARCHIVE})`,
          querystring: certificatesArchiveQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const { total } = await certificates.page({ ...request.query, page: 1 });
        if (total === 0) throw unprocessable(C.noneForArchive);
        if (total > CERTIFICATES_PER_ARCHIVE) throw unprocessable(C.tooManyForArchive);
        const origin = `${request.protocol}://${request.host}`;
        const zip = new yazl.ZipFile();
        const out = new PassThrough();
        zip.outputStream.pipe(out);
        // PDFs one after another into the stream: the archive is never held whole.
        void (async () => {
          try {
            for await (const batch of certificates.batches(request.query))
              for (const row of batch)
                zip.addBuffer(Buffer.from(await certificates.pdf(row, origin)), `${row.number}.pdf`);
            zip.end();
          } catch (error) {
            request.log.error({ err: error }, 'certificate archive failed');
            out.destroy(error instanceof Error ? error : new Error(String(error)));
          }
        })();
        return sendFile(reply, out, 'application/zip', attachment('certificates.zip', 'Сертификаты.zip'));
      },
    );

    app.post(
      '/api/admin/certificates/:number/revoke',
      {
        config: { access: 'settings.manage', name: 'api.admin.certificates.revoke' },
        schema: {
          tags: ['settings'],
          params: certificateParams,
          body: revokeCertificateRequest,
          response: { 200: revokeCertificateResponse, ...errors },
        },
      },
      async (request) => {
        const admin = await request.requireUser();
        const certificate = await certificates.revoke(admin, request.params.number, request.body.reason);
        return { result: { success: ok, message: C.revoked, certificate } };
      },
    );

    app.get(
      '/api/certificates/:number/pdf',
      {
        config: { access: 'authenticated', name: 'api.certificates.pdf' },
        schema: { tags: ['profile'], params: certificateParams, response: errors },
      },
      async (request, reply) => {
        const origin = `${request.protocol}://${request.host}`;
        const { bytes, row } = await certificates.pdfFor(await request.requireUser(), request.params.number, origin);
        const disposition = attachment(`${row.number}.pdf`, `Сертификат ${row.number}.pdf`);
        return sendFile(reply, Buffer.from(bytes), 'application/pdf', disposition);
      },
    );

    app.get(
      '/api/certificates/verify/:number',
      {
        config: { access: 'public', name: 'api.certificates.verify' },
        schema: {
          tags: ['profile'],
          params: certificateParams,
          response: { 200: certificateVerificationResponse, ...errors },
        },
      },
      async (request) => ({
        result: { success: ok, certificate: await certificates.verify(request.params.number, request.ip) },
      }),
    );
  };
