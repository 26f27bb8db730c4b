/**
 * Keeping a series' rollups exact in the write transaction: new steps are merged into their
 * buckets; buckets whose stored values changed are rebuilt (level 0 from the points, each
 * level above from its children); new top levels are built from the level below.
 */
import {
  mergeNodes,
  nodeOfPoints,
  ROLLUP_BASE,
  ROLLUP_FANOUT,
  topLevel,
  type RollupNode,
  type RollupPoint,
} from '../../domain/rollup.js';
import type { SqlExecutor } from './sql-db.js';
import { readLevel, writeNodes } from './sql-rollup-rows.js';

type Level = Map<number, RollupNode>;

/** Groups nodes of one level into their parent buckets, merged. */
function parents(level: Level): Level {
  const out: Level = new Map();
  for (const [bucket, node] of level) {
    const parent = Math.floor(bucket / ROLLUP_FANOUT);
    const held = out.get(parent);
    out.set(parent, held ? mergeNodes(held, node) : node);
  }
  return out;
}

function bounds(level: Iterable<number>): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const k of level) {
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
  return [lo, hi];
}

/** Level-0 nodes of the points, by bucket. */
function baseNodes(points: readonly RollupPoint[]): Level {
  const groups = new Map<number, RollupPoint[]>();
  for (const p of points) {
    const b = Math.floor(p.step / ROLLUP_BASE);
    const g = groups.get(b);
    if (g) g.push(p);
    else groups.set(b, [p]);
  }
  return new Map([...groups].map(([b, ps]) => [b, nodeOfPoints(ps)]));
}

/** Merges the nodes of new points into the stored buckets of levels 0..top. */
async function mergeAdded(tx: SqlExecutor, seriesId: number, top: number, added: Level): Promise<void> {
  let batch = added;
  for (let level = 0; level <= top && batch.size > 0; level++) {
    const [from, to] = bounds(batch.keys());
    const stored = await readLevel(tx, seriesId, level, from, to);
    const out = [...batch].map(([bucket, node]) => {
      const held = stored.get(bucket);
      return { level, bucket, node: held ? mergeNodes(held, node) : node };
    });
    await writeNodes(tx, seriesId, out);
    batch = parents(batch);
  }
}

/** Rebuilds the given level-0 buckets from their points and every ancestor up to top from its children. */
async function rebuild(tx: SqlExecutor, seriesId: number, top: number, buckets: ReadonlySet<number>): Promise<void> {
  let level: Level = new Map();
  for (const b of buckets) {
    const rows = await tx.all<{ step: number | string; value: number | null; time: number | string }>(
      'SELECT step, value, time FROM metric_points WHERE series_id = ? AND step >= ? AND step <= ?',
      [seriesId, b * ROLLUP_BASE, b * ROLLUP_BASE + ROLLUP_BASE - 1],
    );
    const points = rows.map((r) => ({
      step: Number(r.step),
      value: r.value === null ? null : Number(r.value),
      time: Number(r.time),
    }));
    level.set(b, nodeOfPoints(points));
  }
  await writeNodes(
    tx,
    seriesId,
    [...level].map(([bucket, node]) => ({ level: 0, bucket, node })),
  );
  for (let k = 1; k <= top; k++) {
    const wanted = new Set([...level.keys()].map((b) => Math.floor(b / ROLLUP_FANOUT)));
    const [lo, hi] = bounds(wanted);
    const [from, to] = [lo * ROLLUP_FANOUT, hi * ROLLUP_FANOUT + ROLLUP_FANOUT - 1];
    const children = await readLevel(tx, seriesId, k - 1, from, to);
    const onlyWanted: Level = new Map([...children].filter(([b]) => wanted.has(Math.floor(b / ROLLUP_FANOUT))));
    level = parents(onlyWanted);
    await writeNodes(
      tx,
      seriesId,
      [...level].map(([bucket, node]) => ({ level: k, bucket, node })),
    );
  }
}

/** Builds levels from+1..to entirely from the level below (used when a series outgrows its top level). */
async function growLevels(tx: SqlExecutor, seriesId: number, from: number, to: number): Promise<void> {
  for (let level = from + 1; level <= to; level++) {
    const below = await readLevel(tx, seriesId, level - 1, 0, Number.MAX_SAFE_INTEGER);
    const built = parents(below);
    await writeNodes(
      tx,
      seriesId,
      [...built].map(([bucket, node]) => ({ level, bucket, node })),
    );
  }
}

export interface RollupChange {
  /** The series' stored top level, or -1 when it has no rollups (then nothing is done). */
  top: number;
  /** The series' highest step after the write. */
  maxStep: number | null;
  /** Points at steps that were not stored before. */
  added: readonly RollupPoint[];
  /** Steps whose stored value or flag changed (rebuilt from the stored points). */
  changedSteps: readonly number[];
}

/**
 * Brings a series' rollups up to date after its points were written in this transaction.
 * Returns the new top level to store on the series (-1 stays -1).
 */
export async function updateRollups(tx: SqlExecutor, seriesId: number, c: RollupChange): Promise<number> {
  if (c.top < 0) return -1;
  if (c.changedSteps.length > 0) {
    const buckets = new Set([...c.changedSteps, ...c.added.map((p) => p.step)].map((s) => Math.floor(s / ROLLUP_BASE)));
    await rebuild(tx, seriesId, c.top, buckets);
  } else if (c.added.length > 0) {
    await mergeAdded(tx, seriesId, c.top, baseNodes(c.added));
  }
  const top = Math.max(c.top, c.maxStep === null ? 0 : topLevel(c.maxStep));
  if (top > c.top) await growLevels(tx, seriesId, c.top, top);
  return top;
}
