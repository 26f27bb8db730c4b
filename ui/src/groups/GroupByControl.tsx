import { Popover } from '../runs-table/Popover';
import { groupFieldLabel, MAX_GROUP_FIELDS } from './group-by';

/**
 * "Group by" drop-down: up to three fields in the order chosen, from the config keys,
 * `status` and `group` (a run's `group:<name>` tag); "Ungroup" clears them.
 */
export function GroupByControl({
  value,
  configKeys,
  onChange,
}: {
  value: readonly string[];
  configKeys: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const fields = ['status', 'group', ...configKeys.map((k) => `config.${k}`)];
  // A field from the URL that these runs do not show is still offered, so it can be cleared.
  for (const f of value) if (!fields.includes(f)) fields.push(f);
  const full = value.length >= MAX_GROUP_FIELDS;
  return (
    <Popover label="Group by" badge={value.length ? value.map(groupFieldLabel).join(', ') : undefined}>
      <fieldset className="plain-fieldset group-by-control">
        <legend className="popover-heading">Group runs by (up to {MAX_GROUP_FIELDS}, in the order chosen)</legend>
        {fields.map((f) => {
          const on = value.includes(f);
          return (
            <label key={f} className="check-row">
              <input
                type="checkbox"
                checked={on}
                disabled={!on && full}
                onChange={(e) => onChange(e.target.checked ? [...value, f] : value.filter((x) => x !== f))}
              />{' '}
              <span className={f.startsWith('config.') ? 'mono' : undefined}>{groupFieldLabel(f)}</span>
              {on && value.length > 1 && <span className="muted"> ({value.indexOf(f) + 1})</span>}
            </label>
          );
        })}
        {value.length > 0 && (
          <button type="button" className="link-button" onClick={() => onChange([])}>
            Ungroup
          </button>
        )}
      </fieldset>
    </Popover>
  );
}
