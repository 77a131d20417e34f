import { tooManyRequests } from './errors.js';

export const PASSWORD_GATE_BUSY = 'Слишком много попыток входа. Попробуйте позже.';

/**
 * Bounds the password hashing of the whole process. Argon2 runs on libuv's small thread pool
 * (which file reads share), so at most `concurrent` checks run at once and at most `waiting` more
 * wait for a slot; anything beyond is refused at once with 429 instead of joining an unbounded
 * queue. A real user's sign-in then waits behind a handful of checks at worst, however many
 * addresses a flood comes from (the per-address limit stops a flood from one address earlier).
 */
export class PasswordGate {
  #running = 0;
  #started = 0;
  readonly #queue: (() => void)[] = [];

  constructor(
    readonly concurrent: number,
    readonly waiting: number,
  ) {}

  /** How many tasks have started since the process began (tests read it to count checks). */
  get started(): number {
    return this.#started;
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** Runs `task` when a slot is free; throws a 429 when every slot and waiting place is taken. */
  async run<T>(task: () => Promise<T>, busyMessage: string = PASSWORD_GATE_BUSY): Promise<T> {
    if (this.#running >= this.concurrent) {
      if (this.#queue.length >= this.waiting) throw tooManyRequests(busyMessage);
      // The slot is handed over by the finishing task, so #running never drops in between.
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.#running++;
    }
    this.#started++;
    try {
      return await task();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/** The process's one gate: the CPU and the thread pool are per process, not per app instance. */
export const passwordGate = new PasswordGate(2, 16);
