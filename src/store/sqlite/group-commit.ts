import type Database from 'better-sqlite3';
import type { SqlExecutor } from '../sql/db.js';

interface Job {
  fn: (tx: SqlExecutor) => Promise<unknown>;
  /** Runs on the connection outside any transaction (VACUUM, checkpoints), alone. */
  outside?: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Most transactions committed together. */
const MAX_GROUP = 64;

/**
 * Serialises the write transactions of one SQLite connection and commits the ones queued
 * together in one COMMIT (group commit): each runs inside its own SAVEPOINT, so a failing
 * one is rolled back alone, and every caller is answered only after the COMMIT that made its
 * writes durable. Under load this turns many small commits (the main cost of an ingest
 * request) into few.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private draining = false;

  constructor(
    private readonly raw: Database.Database,
    private readonly exec: SqlExecutor,
  ) {}

  /** Runs fn in a transaction of its own (atomic), committed with whatever else is queued. */
  run<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // Let requests that arrived in this turn of the event loop join the group.
        setImmediate(() => void this.drain());
      }
    });
  }

  /**
   * Runs fn between transactions, when no write is open (statements SQLite refuses inside a
   * transaction: VACUUM, wal_checkpoint); the queued writes wait for it.
   */
  runOutside<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        fn: () => Promise.resolve(fn()),
        outside: true,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      if (!this.draining) {
        this.draining = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const first = this.queue[0]!;
        if (first.outside) {
          this.queue.shift();
          await first.fn(this.exec).then(first.resolve, first.reject);
          continue;
        }
        const end = this.queue.findIndex((job) => job.outside);
        await this.commitGroup(this.queue.splice(0, Math.min(MAX_GROUP, end < 0 ? MAX_GROUP : end)));
      }
    } finally {
      this.draining = false;
      if (this.queue.length > 0) {
        this.draining = true;
        setImmediate(() => void this.drain());
      }
    }
  }

  private async commitGroup(group: Job[]): Promise<void> {
    const done: [Job, unknown][] = [];
    try {
      this.raw.exec('BEGIN IMMEDIATE');
    } catch (err) {
      for (const job of group) job.reject(err);
      return;
    }
    for (const job of group) {
      this.raw.exec('SAVEPOINT job');
      try {
        const result = await job.fn(this.exec);
        this.raw.exec('RELEASE job');
        done.push([job, result]);
      } catch (err) {
        if (!this.raw.inTransaction) {
          // The engine rolled everything back (e.g. disk full): every job of the group failed.
          for (const [earlier] of done) earlier.reject(err);
          done.length = 0;
          job.reject(err);
          this.queue.unshift(...group.slice(group.indexOf(job) + 1));
          return;
        }
        this.raw.exec('ROLLBACK TO job');
        this.raw.exec('RELEASE job');
        job.reject(err);
      }
    }
    try {
      this.raw.exec('COMMIT');
    } catch (err) {
      if (this.raw.inTransaction) this.raw.exec('ROLLBACK');
      for (const [job] of done) job.reject(err);
      return;
    }
    for (const [job, result] of done) job.resolve(result);
  }
}
