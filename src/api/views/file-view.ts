import type { FileRecord } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import type { RunFile } from '../schemas/files.js';

/** A stored file with its download link as GET /api/runs/files answers it. */
export const fileView = (r: FileRecord & { url: string }): RunFile => ({
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
