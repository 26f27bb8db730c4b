import { useCallback, useState } from 'react';
import { Dropdown } from './Dropdown';
import { SaveViewForm } from './SaveViewForm';
import type { WorkspaceViews } from './useWorkspaceViews';
import { ViewsList } from './ViewsList';
import './views.css';

type Panel = 'views' | 'save';

/** Opens `which`, or closes it if it is the one open. */
const toggled =
  (which: Panel, on: boolean) =>
  (now: Panel | null): Panel | null =>
    on ? which : now === which ? null : now;

/**
 * The workspace's saved views: which one it shows ("View: lr sweep", "modified" once the
 * page has moved away from it), a "Views" drop-down that lists, applies and manages them,
 * and "Save view".
 */
export function ViewsControl({ project, views }: { project: string; views: WorkspaceViews }) {
  const [open, setOpen] = useState<Panel | null>(null);
  const onViews = useCallback((on: boolean) => setOpen(toggled('views', on)), []);
  const onSave = useCallback((on: boolean) => setOpen(toggled('save', on)), []);
  const close = useCallback(() => setOpen(null), []);
  return (
    <div className="views-control">
      {views.active && (
        <span className="views-active" title="The saved view this page shows">
          View: {views.active.name}
          {views.modified && <span className="views-badge views-modified">modified</span>}
        </span>
      )}
      <Dropdown label="Views" panelLabel="Saved views" open={open === 'views'} onOpenChange={onViews}>
        <ViewsList project={project} views={views} onApplied={close} />
      </Dropdown>
      <Dropdown label="Save view" panelLabel="Save view" open={open === 'save'} onOpenChange={onSave}>
        <SaveViewForm project={project} views={views} onSaved={close} />
      </Dropdown>
    </div>
  );
}
