import { useState } from 'react';
import { Popover } from './Popover';

/** "Tags" drop-down: runs with any of the checked tags; known tags come from loaded runs. */
export function TagsFilter({
  value,
  known,
  onChange,
}: {
  value: string[];
  known: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const [text, setText] = useState('');
  const shown = [...new Set([...value, ...known])].sort((a, b) => a.localeCompare(b));
  const add = () => {
    const tags = text
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '' && !value.includes(t));
    if (tags.length) onChange([...value, ...tags]);
    setText('');
  };
  return (
    <Popover label="Tags" badge={value.length ? String(value.length) : undefined}>
      <fieldset className="plain-fieldset">
        <legend className="visually-hidden">Show runs with any of these tags</legend>
        {shown.length === 0 && <p className="muted small-text">No tags on the loaded runs.</p>}
        <div className="check-list">
          {shown.map((tag) => (
            <label key={tag} className="check-row">
              <input
                type="checkbox"
                checked={value.includes(tag)}
                onChange={(e) => onChange(e.target.checked ? [...value, tag] : value.filter((t) => t !== tag))}
              />
              <span className="tag">{tag}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label>
          <span className="visually-hidden">Tag to filter by</span>
          <input value={text} placeholder="another tag" onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" className="secondary small">
          Add tag
        </button>
      </form>
      {value.length > 0 && (
        <button type="button" className="secondary small" onClick={() => onChange([])}>
          Any tags
        </button>
      )}
    </Popover>
  );
}
