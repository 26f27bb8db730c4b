import { type Condition, describeCondition } from './filter-conditions';

/** The filters in force as chips, each with a remove button, and "Clear all". */
export function ActiveFilters({
  search,
  status,
  tags,
  conditions,
  customFilter,
  onRemoveSearch,
  onRemoveStatus,
  onRemoveTag,
  onRemoveCondition,
  onRemoveCustom,
  onClear,
  more = [],
}: {
  search: string;
  status: string[];
  tags: string[];
  conditions: Condition[];
  customFilter?: string;
  onRemoveSearch: () => void;
  onRemoveStatus: (status: string) => void;
  onRemoveTag: (tag: string) => void;
  onRemoveCondition: (index: number) => void;
  onRemoveCustom: () => void;
  onClear: () => void;
  /** Further chips (the sweep panels' brushes). */
  more?: { key: string; text: string; remove: () => void }[];
}) {
  const chips: { key: string; text: string; remove: () => void }[] = [];
  if (search) chips.push({ key: 'q', text: `name contains “${search}”`, remove: onRemoveSearch });
  for (const s of status) chips.push({ key: `s-${s}`, text: `status ${s}`, remove: () => onRemoveStatus(s) });
  for (const t of tags) chips.push({ key: `t-${t}`, text: `tag ${t}`, remove: () => onRemoveTag(t) });
  conditions.forEach((c, i) =>
    chips.push({ key: `c-${i}`, text: describeCondition(c), remove: () => onRemoveCondition(i) }),
  );
  if (customFilter) chips.push({ key: 'json', text: `filter ${customFilter}`, remove: onRemoveCustom });
  chips.push(...more);
  if (chips.length === 0) return null;
  return (
    <ul className="filter-chips" aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.key} className="filter-chip">
          <span className="filter-chip-text" title={chip.text}>
            {chip.text}
          </span>
          <button type="button" aria-label={`Remove filter: ${chip.text}`} onClick={chip.remove}>
            ×
          </button>
        </li>
      ))}
      {chips.length > 1 && (
        <li>
          <button type="button" className="link-button" onClick={onClear}>
            Clear all
          </button>
        </li>
      )}
    </ul>
  );
}
