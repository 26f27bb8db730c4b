import { type FormEvent, useState } from 'react';
import { useSavedViewWrites } from '../api/saved-view-queries';
import { viewStateJson } from './saved-view-state';
import type { WorkspaceViews } from './useWorkspaceViews';

/**
 * Saves the workspace's current state as a new view of the project, shared with the
 * organization, optionally as the project's default; the saved view becomes the active one.
 * The API's refusal (a taken name, a state too large) shows as its sentence.
 */
export function SaveViewForm({
  project,
  views,
  onSaved,
}: {
  project: string;
  views: WorkspaceViews;
  onSaved: () => void;
}) {
  const { save } = useSavedViewWrites(project);
  const [name, setName] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { name: name.trim(), state: viewStateJson(views.current), isDefault },
      {
        onSuccess: (view) => {
          views.setActiveId(view.id);
          onSaved();
        },
      },
    );
  };
  return (
    <form className="views-save" onSubmit={submit}>
      <label className="views-field">
        View name
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={200}
          placeholder="e.g. lr sweep"
          autoFocus
        />
      </label>
      <label className="views-check">
        <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />
        Open the project with this view (default)
      </label>
      <p className="muted views-note">
        Saves the filters, sort, columns, hidden runs and chart panels, shared with your organization.
      </p>
      {save.error && <p role="alert">{save.error.message}</p>}
      <button type="submit" disabled={save.isPending || name.trim() === ''}>
        {save.isPending ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}
