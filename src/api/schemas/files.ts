import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../schema-helpers.js';

/** A stored file of a run with its signed download link. */
export const RunFile = Type.Object({
  fileName: Type.String(),
  fileType: Type.String(),
  fileSize: Type.Integer(),
  logName: Type.String(),
  logGroup: Type.String(),
  time: Type.String(),
  step: Type.Integer(),
  caption: Nullable(Type.String()),
  sampleIndex: Nullable(Type.Integer()),
  url: Type.String(),
});
export type RunFile = Static<typeof RunFile>;

/** The answer of GET /api/runs/files. */
export const RunFileList = Type.Object({ files: Type.Array(RunFile) });
export type RunFileList = Static<typeof RunFileList>;

/** The answer of POST /files: upload links by name. */
export const UploadLinks = Type.Record(Type.String(), Type.Array(Type.Record(Type.String(), Type.String())));
export type UploadLinks = Static<typeof UploadLinks>;
