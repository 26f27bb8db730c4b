import type { RunFile } from '@server/api/schemas/files';
import type { LogName } from '@server/api/schemas/runs';

/** What the Media tab shows of a log name. */
export type MediaKind = 'IMAGE' | 'AUDIO' | 'VIDEO';

export const MEDIA_KINDS: readonly MediaKind[] = ['IMAGE', 'AUDIO', 'VIDEO'];

/** A file at a step, with its place among that step's files. */
export interface MediaItem {
  file: RunFile;
  /** Its sample index as logged, else its 0-based position among the files of its log name and step. */
  sample: number;
}

/** One log name's files, step by step. */
export interface MediaGroup {
  logName: string;
  kind: MediaKind;
  /** Steps that have files, ascending. */
  steps: number[];
  byStep: Map<number, MediaItem[]>;
}

const isMediaKind = (t: string): t is MediaKind => (MEDIA_KINDS as readonly string[]).includes(t);

/**
 * The run's IMAGE, AUDIO and VIDEO log names with their files grouped by step, images first,
 * then audio, then video, each by name. Log names whose files have not arrived yet have no steps.
 */
export function mediaGroups(logNames: readonly LogName[], files: readonly RunFile[]): MediaGroup[] {
  const groups = new Map<string, MediaGroup>();
  for (const n of logNames) {
    if (isMediaKind(n.logType))
      groups.set(n.logName, { logName: n.logName, kind: n.logType, steps: [], byStep: new Map() });
  }
  for (const file of files) {
    const g = groups.get(file.logName);
    if (!g) continue;
    let list = g.byStep.get(file.step);
    if (!list) {
      list = [];
      g.byStep.set(file.step, list);
      g.steps.push(file.step);
    }
    list.push({ file, sample: file.sampleIndex ?? list.length });
  }
  // By sample index (stable: files without one keep the server's order, by step then name).
  for (const g of groups.values()) for (const list of g.byStep.values()) list.sort((a, b) => a.sample - b.sample);
  const order = (g: MediaGroup) => MEDIA_KINDS.indexOf(g.kind);
  return [...groups.values()]
    .map((g) => ({ ...g, steps: g.steps.sort((a, b) => a - b) }))
    .sort((a, b) => order(a) - order(b) || (a.logName < b.logName ? -1 : a.logName > b.logName ? 1 : 0));
}

/** The index in `steps` of `step`, or of the last step when `step` is null or absent (the latest). */
export function stepIndex(steps: readonly number[], step: number | null): number {
  if (step === null) return steps.length - 1;
  const i = steps.indexOf(step);
  if (i >= 0) return i;
  // The nearest step at or below, else the first.
  let best = 0;
  steps.forEach((s, j) => {
    if (s <= step) best = j;
  });
  return best;
}
