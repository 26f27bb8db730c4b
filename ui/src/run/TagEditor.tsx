import { useId, useState, type FormEvent } from 'react';
import { useUpdateTags } from '../api/run-queries';

const MAX_TAGS = 100;
const MAX_TAG_LENGTH = 256;

/** Why `tag` cannot be added to `tags`, or undefined when it can. */
function problemWith(tag: string, tags: readonly string[]): string | undefined {
  if (tag === '') return 'Type a tag first.';
  if (tag.length > MAX_TAG_LENGTH) return `A tag has at most ${MAX_TAG_LENGTH} characters.`;
  if (tags.includes(tag)) return `The run already has the tag “${tag}”.`;
  if (tags.length >= MAX_TAGS) return `A run has at most ${MAX_TAGS} tags.`;
  return undefined;
}

/**
 * A run's tags as chips, each with a remove button, and a field to add one; every change
 * writes the whole list (`tags/update`). While a write is pending the chips show the list
 * being written; a failed write shows its error and the stored tags.
 */
export function TagEditor({ runId, tags }: { runId: number; tags: string[] }) {
  const inputId = useId();
  const update = useUpdateTags(runId);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string>();
  const shown = update.isPending && update.variables ? update.variables : tags;

  const add = (event: FormEvent) => {
    event.preventDefault();
    const tag = draft.trim();
    const why = problemWith(tag, shown);
    setProblem(why);
    if (why) return;
    update.mutate([...shown, tag], { onSuccess: () => setDraft('') });
  };

  return (
    <div className="tag-editor" role="group" aria-label="Tags">
      <ul className="tag-list" aria-label="Tags of this run">
        {shown.length === 0 && <li className="muted">No tags</li>}
        {shown.map((tag) => (
          <li key={tag} className="tag tag-chip">
            <span>{tag}</span>
            <button
              type="button"
              className="tag-remove"
              aria-label={`Remove tag ${tag}`}
              disabled={update.isPending}
              onClick={() => update.mutate(shown.filter((t) => t !== tag))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form className="tag-add" onSubmit={add}>
        <label className="visually-hidden" htmlFor={inputId}>
          New tag
        </label>
        <input
          id={inputId}
          value={draft}
          placeholder="New tag"
          maxLength={MAX_TAG_LENGTH}
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(undefined);
          }}
        />
        <button type="submit" className="secondary" disabled={update.isPending}>
          Add tag
        </button>
        {update.isPending && (
          <span className="muted" role="status">
            Saving tags…
          </span>
        )}
      </form>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {update.isError && (
        <p className="field-error" role="alert">
          Tags were not saved: {update.error.message}
        </p>
      )}
    </div>
  );
}
