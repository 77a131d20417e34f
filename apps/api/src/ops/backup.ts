import { loadConfig } from '../config.js';
import { runCommand } from './backup/command.js';
import { takeBackup } from './backup/takeBackup.js';

/**
 * `npm run backup -- <folder>` (node apps/api/dist/ops/backup.js <folder>), with the server's
 * environment (DATA_DIR, DATABASE_URL, STORAGE_URL, S3_*): the database, the files and the key into
 * a new or empty folder, with manifest.json (ops/backup/, docs/decisions.md §Backups). The server
 * may keep running.
 */
runCommand({
  usage: 'Использование: npm run backup -- <папка>   (новая или пустая папка для резервной копии)',
  heading: (dir) => `Резервная копия в ${dir}:`,
  failure: 'Не удалось сделать резервную копию',
  done: 'Готово. Восстановление: npm run restore -- <папка> (в пустую папку данных или пустую базу)',
  run: (dir, say) => takeBackup(loadConfig(), dir, say),
});
