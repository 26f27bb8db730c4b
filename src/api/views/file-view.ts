import type { FileRecord } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';

/** A stored file with its download link as GET /api/runs/files answers it. */
export const fileView = (r: FileRecord & { url: string }) => ({
  fileName: r.fileName,
  fileType: r.fileType,
  fileSize: r.fileSize,
  logName: r.logName,
  logGroup: r.logGroup,
  time: iso(r.time),
  step: r.step,
  caption: r.caption,
  sampleIndex: r.sampleIndex,
  url: r.url,
});

/** The files of a listing as JSON texts (one per file, made as the answer is sent). */
export function* fileTexts(files: readonly (FileRecord & { url: string })[]): Generator<string> {
  for (const f of files) yield JSON.stringify(fileView(f));
}
