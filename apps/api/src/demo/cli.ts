import { ensureFirstAdmin, prepareDatabase } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { systemClock } from '../platform/clock.js';
import { loadDemo } from './seed.js';
import { createFileStore } from '../platform/fileStore/fromConfig.js';

/**
 * `npm run demo` (node apps/api/dist/demo/cli.js): migrates the database, creates the first
 * administrator if there is none, loads the demo organisation once and prints how to sign in.
 */
const ROLE_LABELS: Record<string, string> = {
  admin: 'Администратор',
  author: 'Автор курсов',
  manager: 'Руководитель',
  learner: 'Ученик',
};

async function main(): Promise<void> {
  const config = loadConfig();
  const db = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await prepareDatabase(db);
    const admin = await ensureFirstAdmin(db.kysely, config, systemClock);
    const result = await loadDemo(db.kysely, config, systemClock);

    const lines: string[] = [''];
    if (admin) {
      lines.push(`  Первый администратор создан: ${admin.email}`);
      lines.push(
        admin.generatedPassword
          ? `  Пароль администратора (показан один раз, сохраните его): ${admin.generatedPassword}`
          : '  Пароль администратора: значение ADMIN_PASSWORD',
        '',
      );
    }
    if (!result.created) {
      lines.push('  Демо-данные уже загружены, ничего не изменено.');
    } else {
      const count = async (table: 'courses' | 'lessons' | 'tests' | 'departments' | 'users') => {
        const row = await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      };
      lines.push('  Демо-данные загружены:');
      lines.push(`    отделы: ${await count('departments')}, учебная группа «Новые сотрудники»`);
      lines.push(
        `    курсы: ${await count('courses')} (один из них — черновик), уроки: ${await count('lessons')}, тесты: ${await count('tests')}`,
      );
      lines.push('    назначения курсов, прогресс учеников, попытки тестов, картинки и файлы уроков');
      lines.push(`    файлы: ${createFileStore(config).location.replace(/\/?$/, '/')}storage/demo/`);
    }
    if (result.users.length > 0) {
      lines.push('', `  Демо-пользователи (пароль у всех: ${result.password}):`);
      const width = Math.max(...result.users.map((u) => u.email.length));
      for (const u of result.users) lines.push(`    ${u.email.padEnd(width)}  ${ROLE_LABELS[u.role] ?? u.role}`);
    }
    lines.push('', `  База данных: ${db.kind === 'sqlite' ? `${config.dataDir}/app.db` : 'PostgreSQL (DATABASE_URL)'}`);
    lines.push('  Запуск платформы: npm start', '');
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Не удалось загрузить демо-данные: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
