/**
 * The series writer thread's protocol. The thread runs the SeriesStore methods that write
 * (SERIES_WRITES) with the arguments they were called with, cloned across threads; a write
 * listed in WIRE_FORMS crosses in a cheaper form. Adding a write to the store means adding its
 * name here, nothing else.
 */
import type { ErrorCode } from '../../errors.js';
import type { RunRef, SeriesStore } from '../series-store.js';
import { toPacked, type PackedPoints } from '../../domain/packed-points.js';
import type { MetricPointInput } from '../../domain/types.js';

/** The SeriesStore methods that write: the writer thread runs them; every other method reads on the caller's thread. */
export const SERIES_WRITES = [
  'appendMetrics',
  'appendConsole',
  'appendData',
  'createFiles',
  'markFileUploaded',
] as const satisfies readonly (keyof SeriesStore)[];

export type SeriesWrite = (typeof SERIES_WRITES)[number];

/** A write's arguments as they cross, and the buffers moved rather than copied. */
export interface WireForm {
  args: unknown[];
  transfer: ArrayBuffer[];
}

/** Writes whose arguments cross in another form than a plain clone (the store method takes both forms). */
export const WIRE_FORMS: Partial<Record<SeriesWrite, (args: unknown[]) => WireForm>> = {
  // One Float64Array moved instead of 4 fields per point cloned, and only the run's ids.
  appendMetrics: ([run, points]) => {
    const { id, projectId } = run as RunRef;
    const packed = toPacked(points as readonly MetricPointInput[] | PackedPoints);
    return { args: [{ id, projectId }, packed], transfer: [packed.cols.buffer as ArrayBuffer] };
  },
};

/** A call from the main thread to the writer thread. */
export interface WorkerRequest {
  id: number;
  method: SeriesWrite | 'close';
  args: unknown[];
}

/** The writer thread's answer: the method's result, or its error (AppErrors keep their code). */
export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: ErrorCode | null; message: string } };
