import { useState, type FormEvent } from 'react';
import { useRenameRun } from '../api/run-admin-queries';

/** A run's name as the page title, with a "Rename" button that turns it into a field. */
export function RunNameEditor({ runId, name }: { runId: number; name: string }) {
  const [draft, setDraft] = useState<string>();
  const rename = useRenameRun();
  if (draft === undefined) {
    return (
      <>
        <h1>{name}</h1>
        <button type="button" className="link-button" onClick={() => setDraft(name)}>
          Rename
        </button>
      </>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    if (next === '' || next === name) return setDraft(undefined);
    rename.mutate({ runId, name: next }, { onSuccess: () => setDraft(undefined) });
  };
  return (
    <form className="run-name-form" onSubmit={submit}>
      <label className="visually-hidden" htmlFor="run-name-input">
        Run name
      </label>
      <input
        id="run-name-input"
        value={draft}
        maxLength={1024}
        autoFocus
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setDraft(undefined)}
      />
      <button type="submit" disabled={rename.isPending}>
        Save name
      </button>
      <button type="button" className="secondary" onClick={() => setDraft(undefined)}>
        Cancel
      </button>
      {rename.isError && <span role="alert">{rename.error.message}</span>}
    </form>
  );
}
