import { createHash } from 'node:crypto';

/** Longest file name (bytes) the common filesystems allow (ext4, XFS, APFS, NTFS in UTF-16 aside). */
const NAME_MAX = 255;
/** What the local store appends to a name for its temporary file: `.<uuid>.part`. */
const TEMP_SUFFIX_BYTES = 1 + 36 + 5;
/** Longest key segment stored under its own name, so that its temporary file still fits NAME_MAX. */
export const MAX_PLAIN_SEGMENT_BYTES = NAME_MAX - TEMP_SUFFIX_BYTES;

/**
 * Returns the on-disk name of one blob-key segment: the segment itself when its UTF-8 form
 * fits MAX_PLAIN_SEGMENT_BYTES (every blob written before this rule), else its SHA-256 in
 * hex (64 bytes), so a file name of any accepted length can be stored.
 */
export function diskName(segment: string): string {
  if (Buffer.byteLength(segment, 'utf8') <= MAX_PLAIN_SEGMENT_BYTES) return segment;
  return createHash('sha256').update(segment, 'utf8').digest('hex');
}
