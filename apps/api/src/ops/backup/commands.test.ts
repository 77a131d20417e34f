import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../platform/fileStore/fromConfig.js';
import { demoInstallation, emptyInstallation, everyFile, everyRow, type Installation } from '../../test/companies.js';
import { dialectName } from '../../test/harness.js';
import { startS3Server, type RunningS3 } from '../../test/s3Server.js';
import { buildServer, root } from '../../test/spawned.js';

/**
 * `npm run backup` and `npm run restore` as an operator runs them: the build in apps/api/dist, the
 * settings in the environment only (here the files in a bucket, restored into a DATA_DIR).
 */

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Asynchronously: the S3 server these commands talk to runs in this process. */
function command(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, `apps/api/dist/ops/${script}.js`), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The command's own stderr: from its reason on (Node's warnings may come before it). */
const failure = (finished: Finished) => finished.stderr.slice(finished.stderr.indexOf('Не удалось'));

let s3: RunningS3;
const installations: Installation[] = [];
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dir = mkdtempSync(join(tmpdir(), 'lms-backup-command-'));
});
afterAll(async () => {
  for (const i of installations) await i.drop();
  await s3.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe(`npm run backup, npm run restore (${dialectName})`, () => {
  // Incremental: nothing to do when apps/api/dist is current (CI typechecks, and so builds, first).
  beforeAll(buildServer, 240_000);

  it('back up a company and bring it back; say in one line why not, with exit code 1', async () => {
    const storage = { ...s3.env, STORAGE_URL: `s3://${s3.settings.bucket}/cli${Date.now().toString(36)}/` };
    const source = await demoInstallation((config) => createFileStore(config), storage);
    installations.push(source);
    const backup = join(dir, 'копия 1');

    const made = await command('backup', [backup], source.env);
    // (stderr may hold Node's warnings, such as the AWS SDK's about Node 20.)
    expect([made.code, made.stderr]).toEqual([0, expect.not.stringContaining('Не удалось')]);
    expect(made.stdout).toContain(`Резервная копия в ${backup}:`);
    expect(made.stdout).toMatch(/база данных: .* → database\.\w+, [\d.]+ МБ; схема 0\d+_\w+, таблиц: \d+, строк: \d+/);
    expect(made.stdout).toMatch(/ключ приложения: .*app-secret → app-secret/);
    expect(made.stdout).toMatch(/файлы: \d+, [\d.]+ МБ \(s3:\/\/lms-test\/cli\w+\/\)/);
    expect(made.stdout).toMatch(/Готово\.[^\n]*\n$/);

    // Into DATA_DIR's folders this time: where the files were does not bind the restore.
    const target = await emptyInstallation();
    installations.push(target);
    const restored = await command('restore', [backup], target.env);
    expect([restored.code, restored.stderr]).toEqual([0, expect.not.stringContaining('Не удалось')]);
    expect(restored.stdout).toContain('контрольные суммы сверены');
    expect(restored.stdout).toContain('Готово. Запустите платформу: npm start');
    expect(await everyRow(target)).toEqual(await everyRow(source));
    expect(await everyFile(createFileStore(target.config))).toEqual(await everyFile(createFileStore(source.config)));

    const again = await command('restore', [backup], target.env);
    expect(again.code).toBe(1);
    expect(failure(again)).toMatch(/^Не удалось восстановить: [^\n]*(уже есть база данных|не пуста)[^\n]*\n$/);
    const over = await command('backup', [backup], source.env);
    expect(over.code).toBe(1);
    expect(failure(over)).toMatch(/^Не удалось сделать резервную копию: Папка .* не пуста[^\n]*\n$/);
    const usage = await command('backup', [], source.env);
    expect([usage.code, usage.stderr]).toEqual([
      1,
      expect.stringMatching(/^[^\n]*Использование: npm run backup -- <папка>/),
    ]);
    const settings = await command('restore', [backup], { ...target.env, STORAGE_URL: 'ftp://elsewhere' });
    expect(settings.code).toBe(1);
    expect(failure(settings)).toMatch(/^Не удалось восстановить: Invalid configuration: STORAGE_URL[^\n]*\n$/);
  }, 120_000);
});
