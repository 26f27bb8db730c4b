/**
 * The kind (LogNameType) a log name is registered with, from what is logged under it: a
 * file's type or extension, a data line's dataType.
 */
import { LOG_NAME_TYPES, type LogNameType } from './types.js';

const KIND_BY_EXTENSION: Record<string, LogNameType> = {
  png: 'IMAGE',
  jpg: 'IMAGE',
  jpeg: 'IMAGE',
  gif: 'IMAGE',
  webp: 'IMAGE',
  bmp: 'IMAGE',
  svg: 'IMAGE',
  mp4: 'VIDEO',
  webm: 'VIDEO',
  mov: 'VIDEO',
  avi: 'VIDEO',
  wav: 'AUDIO',
  mp3: 'AUDIO',
  ogg: 'AUDIO',
  flac: 'AUDIO',
};

/** The kind of log name a file registers: from its type or else its extension; FILE when unknown. */
export function logNameTypeOfFile(fileType: string, fileName: string): LogNameType {
  const ext = (fileType || fileName.split('.').pop() || '')
    .toLowerCase()
    .replace(/^\./, '')
    .replace(/^(image|video|audio)\//, '');
  return KIND_BY_EXTENSION[ext] ?? 'FILE';
}

/** The kind of log name a data line registers: its dataType when that names a kind (any case), else DATA. */
export function logNameTypeOfData(dataType: string): LogNameType {
  const upper = dataType.toUpperCase();
  return (LOG_NAME_TYPES as readonly string[]).includes(upper) ? (upper as LogNameType) : 'DATA';
}
