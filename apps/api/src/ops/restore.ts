import { loadConfig } from '../config.js';
import { runCommand } from './backup/command.js';
import { restoreBackup } from './backup/restoreBackup.js';

/**
 * `npm run restore -- <folder>` (node apps/api/dist/ops/restore.js <folder>), with the environment
 * the server will run with: a backup of `npm run backup` into an empty DATA_DIR (SQLite) or an empty
 * database (PostgreSQL) and the configured file store, every checksum verified first. Refuses a
 * target that holds data; never overwrites (ops/backup/restoreBackup.ts).
 */
runCommand({
  usage: 'Использование: npm run restore -- <папка с резервной копией>',
  heading: (dir) => `Восстановление из ${dir}:`,
  failure: 'Не удалось восстановить',
  done: 'Готово. Запустите платформу: npm start',
  run: (dir, say) => restoreBackup(loadConfig(), dir, say),
});
