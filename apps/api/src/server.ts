import { buildApp } from './app.js';
import { ensureFirstAdmin } from './bootstrap.js';
import { loadConfig } from './config.js';
import { connect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { systemClock } from './platform/clock.js';
import { loadAppSecret } from './platform/secret.js';

/** Reads config, migrates, creates the first admin, listens; finishes in-flight requests on SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db.kysely, db.kind, db.schema);
  const admin = await ensureFirstAdmin(db.kysely, config, systemClock);
  const secret = loadAppSecret(config.appSecret, config.dataDir);
  const logger =
    config.env === 'production'
      ? { level: config.logLevel }
      : { level: config.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } };
  const app = await buildApp({ config, db, clock: systemClock, secret, logger });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.env === 'production' && !config.mail.host) {
    app.log.warn(
      `MAIL_HOST is not set: mails (with passwords and codes) are written to ${config.dataDir}/mail instead of being sent`,
    );
  }
  await app.listen({ port: config.port, host: config.host });
  const url = config.publicUrl ?? `http://localhost:${config.port}`;
  const lines = [`\n  Платформа обучения запущена: ${url}`];
  if (admin) {
    lines.push(`  Первый администратор создан. Вход: ${admin.email}`);
    lines.push(
      admin.generatedPassword
        ? `  Пароль (показан один раз, сохраните его): ${admin.generatedPassword}`
        : '  Пароль: значение ADMIN_PASSWORD',
    );
  }
  lines.push(`  База данных: ${db.kind === 'sqlite' ? `${config.dataDir}/app.db` : 'PostgreSQL (DATABASE_URL)'}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Не удалось запустить сервер: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
