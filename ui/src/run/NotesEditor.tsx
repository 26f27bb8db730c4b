import { useId, useState } from 'react';
import { useUpdateNotes } from '../api/run-queries';

const MAX_NOTES = 10_000;

/**
 * A run's notes: a textarea and a Save button (enabled once the text differs from the
 * stored notes). Live refreshes of the run do not overwrite text being edited; an empty
 * text clears the notes.
 */
export function NotesEditor({ runId, notes }: { runId: number; notes: string | null }) {
  const id = useId();
  const update = useUpdateNotes(runId);
  const stored = notes ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? stored;
  const dirty = draft !== null && draft !== stored;
  const [saved, setSaved] = useState(false);

  return (
    <form
      className="notes-editor"
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(false);
        update.mutate(text === '' ? null : text, {
          onSuccess: () => {
            setDraft(null);
            setSaved(true);
          },
        });
      }}
    >
      <label htmlFor={id} className="notes-label">
        Notes
      </label>
      <textarea
        id={id}
        rows={5}
        value={text}
        maxLength={MAX_NOTES}
        placeholder="What is this run about? What did you learn?"
        onChange={(event) => {
          setDraft(event.target.value);
          setSaved(false);
        }}
      />
      <div className="notes-actions">
        <button type="submit" disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save notes'}
        </button>
        {dirty && !update.isPending && (
          <button type="button" className="secondary" onClick={() => setDraft(null)}>
            Discard changes
          </button>
        )}
        <span className="muted notes-count">
          {text.length.toLocaleString()} / {MAX_NOTES.toLocaleString()}
        </span>
        <span role="status" className="muted">
          {saved && !dirty ? 'Notes saved' : ''}
        </span>
      </div>
      {update.isError && (
        <p className="field-error" role="alert">
          Notes were not saved: {update.error.message}
        </p>
      )}
    </form>
  );
}
