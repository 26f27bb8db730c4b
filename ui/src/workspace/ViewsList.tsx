import { type FormEvent, useState } from 'react';
import type { SavedViewHead } from '@server/api/schemas/saved-views';
import { useSavedViewWrites } from '../api/saved-view-queries';
import { viewStateJson } from './saved-view-state';
import type { WorkspaceViews } from './useWorkspaceViews';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong');

/**
 * The project's saved views, default first: a click on a name applies that view; each view
 * can be made (or stop being) the default, renamed, overwritten with the workspace's current
 * state, or deleted after a confirmation. The API's refusals (a taken name, a state too
 * large) show as its sentence.
 */
export function ViewsList({
  project,
  views,
  onApplied,
}: {
  project: string;
  views: WorkspaceViews;
  onApplied: () => void;
}) {
  const writes = useSavedViewWrites(project);
  const [editing, setEditing] = useState<{ id: number; mode: 'rename' | 'delete' } | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<unknown>, after?: () => void) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setEditing(null);
      after?.();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const apply = (view: SavedViewHead) => void run(() => views.apply(view.id), onApplied);
  const rename = (event: FormEvent, view: SavedViewHead) => {
    event.preventDefault();
    void run(() => writes.change.mutateAsync({ viewId: view.id, name: name.trim() }));
  };
  const update = (view: SavedViewHead) =>
    void run(
      () => writes.change.mutateAsync({ viewId: view.id, state: viewStateJson(views.current) }),
      () => views.setActiveId(view.id),
    );
  const remove = (view: SavedViewHead) =>
    void run(
      () => writes.remove.mutateAsync(view.id),
      () => {
        if (views.active?.id === view.id) views.setActiveId(null);
      },
    );

  if (views.loading) return <p className="muted">Loading views…</p>;
  if (views.error && !views.views) return <p role="alert">{views.error.message}</p>;
  const list = views.views ?? [];
  return (
    <>
      <p className="popover-heading">Saved views</p>
      {error && (
        <p role="alert" className="views-error">
          {error}
        </p>
      )}
      {list.length === 0 ? (
        <p className="muted">
          No saved views yet. “Save view” keeps this page’s filters, columns, hidden runs and charts under a name for
          everyone in the organization.
        </p>
      ) : (
        <ul className="views-list" aria-label="Saved views">
          {list.map((view) => (
            <li key={view.id} aria-label={view.name}>
              <div className="views-row">
                <button
                  type="button"
                  className="link-button views-name"
                  aria-current={views.active?.id === view.id ? 'true' : undefined}
                  disabled={busy}
                  onClick={() => apply(view)}
                >
                  {view.name}
                </button>
                {view.isDefault && <span className="views-badge">default</span>}
              </div>
              {editing?.id === view.id && editing.mode === 'rename' ? (
                <form className="views-edit" onSubmit={(e) => rename(e, view)}>
                  <label>
                    New name
                    <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus />
                  </label>
                  <button type="submit" disabled={busy || name.trim() === ''}>
                    Save name
                  </button>
                  <button type="button" className="secondary" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </form>
              ) : editing?.id === view.id && editing.mode === 'delete' ? (
                <div className="views-edit" role="group" aria-label={`Delete ${view.name}?`}>
                  <span>Delete it for everyone?</span>
                  <button type="button" className="danger" disabled={busy} onClick={() => remove(view)}>
                    Delete view
                  </button>
                  <button type="button" className="secondary" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </div>
              ) : (
                <div className="views-actions">
                  <button
                    type="button"
                    className="link-button"
                    disabled={busy}
                    onClick={() =>
                      void run(() => writes.change.mutateAsync({ viewId: view.id, isDefault: !view.isDefault }))
                    }
                  >
                    {view.isDefault ? 'Unset default' : 'Set as default'}
                  </button>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      setName(view.name);
                      setError(null);
                      setEditing({ id: view.id, mode: 'rename' });
                    }}
                  >
                    Rename
                  </button>
                  <button type="button" className="link-button" disabled={busy} onClick={() => update(view)}>
                    Update with current state
                  </button>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      setError(null);
                      setEditing({ id: view.id, mode: 'delete' });
                    }}
                  >
                    Delete
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
