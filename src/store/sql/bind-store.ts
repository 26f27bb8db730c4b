/**
 * Stores built from functions. Each method of a store interface S is one function taking the
 * database first, then the method's arguments: its parameters are written once, on the
 * function, and SqlFunctions<S> checks every function against the interface's method (a
 * missing, extra or mistyped one fails to compile).
 */
import type { SqlDb } from './db.js';

/** For each method of S: a function taking the database, then the method's arguments, returning what it returns. */
export type SqlFunctions<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (db: SqlDb, ...args: A) => R : never;
};

/** Returns the store S whose every method calls its function with `db` first. */
export function bindStore<S>(db: SqlDb, functions: SqlFunctions<S>): S {
  const store: Partial<Record<keyof S, unknown>> = {};
  for (const name of Object.keys(functions) as (keyof S)[]) {
    const fn = functions[name] as (db: SqlDb, ...args: unknown[]) => unknown;
    store[name] = (...args: unknown[]) => fn(db, ...args);
  }
  return store as S;
}

/**
 * A class made from a store factory: `new Store(...args)` returns `make(...args)`, so callers
 * build a store with `new` like any class while its methods come from bindStore.
 */
export function storeClass<A extends unknown[], S extends object>(make: (...args: A) => S): new (...args: A) => S {
  return class {
    constructor(...args: A) {
      return make(...args);
    }
  } as unknown as new (...args: A) => S;
}
