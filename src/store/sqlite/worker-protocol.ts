import type { ErrorCode } from '../../errors.js';
import type { ConsoleLine, DataLine, FileInput, RunRef } from '../series-store.js';
import type { PackedPoints } from '../sql/packed-points.js';

/** A call from the main thread to the series writer thread. */
export type WorkerRequest = { id: number } & (
  | { method: 'appendMetrics'; args: [RunRef, PackedPoints] }
  | { method: 'appendConsole'; args: [number, readonly ConsoleLine[]] }
  | { method: 'appendData'; args: [number, readonly DataLine[]] }
  | { method: 'markFileUploaded'; args: [string, number, number] }
  | { method: 'createFiles'; args: [number, readonly FileInput[], readonly string[]] }
  | { method: 'close'; args: [] }
);

/** The writer thread's answer: the method's result, or its error (AppErrors keep their code). */
export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: ErrorCode | null; message: string } };
