/**
 * The runs page's "Group by": up to three fields of `GET /api/runs/groups` (`config.<key>`,
 * `status`, `group`), kept in the URL as `group=config.lr,config.optimizer`, and the band
 * the grouped charts draw around each group's mean (`band=std|stderr|minmax`, std unless told).
 */

/** The most fields one grouping takes (the API's limit). */
export const MAX_GROUP_FIELDS = 3;

/** What the band around a group's mean spans. */
export type BandKind = 'std' | 'stderr' | 'minmax';
export const BAND_KINDS: readonly BandKind[] = ['std', 'stderr', 'minmax'];
export const BAND_LABELS: Record<BandKind, string> = {
  std: 'Standard deviation',
  stderr: 'Standard error',
  minmax: 'Min–max',
};

/** The band's short name in a readout. */
export const BAND_SHORT: Record<BandKind, string> = { std: '±std', stderr: '±stderr', minmax: 'min–max' };

/** A grouping field the dashboard offers: a config key, `status` or `group` (a `group:<name>` tag). */
export const isGroupField = (field: string): boolean =>
  field === 'status' || field === 'group' || (field.startsWith('config.') && field.length > 7);

/** The fields of a `group=` value: known kinds only, distinct, at most MAX_GROUP_FIELDS. */
export function readGroupBy(text: string | null): string[] {
  const fields = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(isGroupField);
  return [...new Set(fields)].slice(0, MAX_GROUP_FIELDS);
}

/** The `band=` value's kind (std for anything else). */
export const readBand = (text: string | null): BandKind =>
  (BAND_KINDS as readonly string[]).includes(text ?? '') ? (text as BandKind) : 'std';

/** A grouping field as a person reads it: the config key, "status" or "group". */
export const groupFieldLabel = (field: string): string => (field.startsWith('config.') ? field.slice(7) : field);
