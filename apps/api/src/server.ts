import { buildApp } from './app.js';
import { startBackgroundJobs } from './background.js';
import { ensureFirstAdmin, prepareDatabase } from './bootstrap.js';
import { loadConfig } from './config.js';
import { connect } from './db/connect.js';
import { systemClock } from './platform/clock.js';
import { loadAppSecret } from './platform/secret.js';
import { createShutdown, listenUrl } from './platform/shutdown.js';

/**
 * Reads config, migrates, creates the first admin, listens; on SIGTERM/SIGINT (or when `npm start`
 * that spawned it goes away) finishes in-flight requests within SHUTDOWN_TIMEOUT_MS, then exits.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const drainMs = config.shutdownTimeoutMs;
  const db = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await prepareDatabase(db);
  const admin = await ensureFirstAdmin(db.kysely, config, systemClock);
  const secret = loadAppSecret(config.appSecret, config.dataDir);
  const logger =
    config.env === 'production'
      ? { level: config.logLevel }
      : { level: config.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } };
  const app = await buildApp({ config, db, clock: systemClock, secret, logger });

  const shutdown = createShutdown({
    close: async () => {
      // Before Fastify's own closing, whose answers would send clients to the closing port.
      await app.stopAccepting();
      await app.close();
      await db.close();
    },
    log: app.log,
    drainMs,
    exit: (code) => process.exit(code),
  });
  // SIGHUP too: a closed terminal reaches the server directly, and its default is to exit at once.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));
  // scripts/start.mjs talks over an IPC channel: when it dies, even by SIGKILL, the channel closes
  // and the server stops instead of living on as an orphan.
  if (process.connected) {
    process.once('disconnect', () => void shutdown('parent exited'));
    // The listener would otherwise keep the channel, and so the process, alive on its own.
    process.channel?.unref();
  }

  if (config.env === 'production' && !config.mail.host) {
    app.log.warn(
      `MAIL_HOST is not set: mails (with passwords and codes) are written to ${config.dataDir}/mail instead of being sent`,
    );
  }
  // Periodic passes (background.ts), from the moment the server listens: the sweeps, the outbox, and
  // the reminders soon after start-up (REMINDERS=off stops them), then every REMINDERS_INTERVAL_MINUTES.
  // Each is safe beside another process's; they stop when closing starts.
  let stopJobs = () => {};
  app.addHook('preClose', async () => stopJobs());
  await db.openConnections();
  await app.listen({ port: config.port, host: config.host });
  stopJobs = startBackgroundJobs(app, config);
  // The address the socket really has (PORT=0 picks a free port), not what the config asked for.
  const lines = [`\n  Платформа обучения запущена: ${listenUrl(app.server.address())}`];
  if (config.publicUrl) lines.push(`  Публичный адрес: ${config.publicUrl}`);
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
