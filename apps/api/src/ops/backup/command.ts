import { resolve } from 'node:path';

/**
 * The frame of `npm run backup` and `npm run restore`: one folder argument, lines for the operator
 * on stdout as each step ends, exit code 0; or a one-line reason on stderr and exit code 1.
 */
export function runCommand(command: {
  usage: string;
  heading: (dir: string) => string;
  failure: string;
  done: string;
  run: (dir: string, say: (line: string) => void) => Promise<unknown>;
}): void {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const args = process.argv.slice(2);
  const [dir] = args;
  const usage = args.length !== 1 || !dir || dir.startsWith('-');
  const main = async () => {
    if (usage) throw new Error(command.usage);
    say(command.heading(resolve(dir)));
    await command.run(dir, say);
    say(command.done);
  };
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      // One line, also for a message of several (the configuration's problems).
      const reason = (error instanceof Error ? error.message : String(error))
        .trim()
        .replace(/:\s*\n\s*/g, ': ')
        .replace(/\s*\n\s*/g, '; ');
      process.stderr.write(usage ? `${reason}\n` : `${command.failure}: ${reason}\n`);
      process.exit(1);
    },
  );
}
