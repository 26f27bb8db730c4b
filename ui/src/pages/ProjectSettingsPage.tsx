import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useDeleteProject, useProjectSettings, useRenameProject, useSetRetention } from '../api/run-admin-queries';
import { AdminOnlyNotice } from '../components/AdminOnlyNotice';
import { ErrorState, Loading } from '../components/States';
import { useAdminRole } from '../people/useAdminRole';
import { projectPath, projectsPath } from '../paths';
import { ProjectCrumbs } from '../projects/ProjectCrumbs';
import './manage.css';

/**
 * A project's settings (`/o/:org/projects/:project/settings`): rename, retention, delete for
 * owners and admins; other roles, whom the API refuses these changes, read the retention.
 */
export function ProjectSettingsPage() {
  const { org = '', project = '' } = useParams();
  const settings = useProjectSettings(project);
  const { account, admin } = useAdminRole();
  return (
    <div className="manage-page">
      <ProjectCrumbs org={org} project={project} page="Settings" />
      <h1>Settings of {project}</h1>
      {settings.isPending || account.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : !admin ? (
        <ReadOnlySettings days={settings.data.retentionDays} />
      ) : (
        <>
          <RenameProject org={org} project={project} />
          <Retention project={project} days={settings.data.retentionDays} />
          <DeleteProject org={org} project={project} />
        </>
      )}
    </div>
  );
}

/** The settings as text, with the notice that only owners and admins change them. */
function ReadOnlySettings({ days }: { days: number | null }) {
  return (
    <section className="card" aria-label="Project settings">
      <AdminOnlyNotice action="rename, delete or change the retention of a project" />
      <p>
        Retention:{' '}
        {days === null
          ? 'runs are kept until someone deletes them.'
          : `finished runs older than ${days} days move to the trash by themselves.`}
      </p>
    </section>
  );
}

function RenameProject({ org, project }: { org: string; project: string }) {
  const id = useId();
  const [name, setName] = useState(project);
  const rename = useRenameProject();
  const navigate = useNavigate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const newName = name.trim();
    if (newName === '' || newName === project) return;
    rename.mutate({ projectName: project, newName }, { onSuccess: () => void navigate(projectPath(org, newName)) });
  };
  return (
    <section className="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Name</h2>
      <p className="muted">Run ids, display ids and links keep working; old links lead to the new name.</p>
      <form className="settings-form" onSubmit={submit}>
        <label>
          Project name
          <input value={name} maxLength={256} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" disabled={rename.isPending}>
          Rename
        </button>
      </form>
      {rename.isError && <p role="alert">{rename.error.message}</p>}
    </section>
  );
}

function Retention({ project, days }: { project: string; days: number | null }) {
  const id = useId();
  const [text, setText] = useState(days === null ? '' : String(days));
  const save = useSetRetention();
  const parsed = text.trim() === '' ? null : Number(text);
  const valid = parsed === null || (Number.isInteger(parsed) && parsed >= 1 && parsed <= 36_500);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) save.mutate({ projectName: project, retentionDays: parsed });
  };
  return (
    <section className="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Retention</h2>
      <p className="muted">
        Finished runs older than this move to the trash by themselves; running runs never do. Empty: keep runs.
      </p>
      <form className="settings-form" onSubmit={submit}>
        <label>
          Retention (days)
          <input inputMode="numeric" value={text} onChange={(e) => setText(e.target.value)} aria-invalid={!valid} />
        </label>
        <button type="submit" disabled={!valid || save.isPending}>
          Save retention
        </button>
        {save.isSuccess && <span role="status">Saved</span>}
      </form>
      {!valid && <p role="alert">Retention is a whole number of days from 1 to 36,500, or empty.</p>}
      {save.isError && <p role="alert">{save.error.message}</p>}
    </section>
  );
}

function DeleteProject({ org, project }: { org: string; project: string }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const remove = useDeleteProject();
  const navigate = useNavigate();
  return (
    <section className="card danger-zone" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Delete this project</h2>
      <p>The project and all its runs move to the trash; each run can be restored until it is purged.</p>
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed === project) remove.mutate(project, { onSuccess: () => void navigate(projectsPath(org)) });
        }}
      >
        <label>
          Type the project name to confirm
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit" className="danger" disabled={typed !== project || remove.isPending}>
          Delete project
        </button>
      </form>
      {remove.isError && <p role="alert">{remove.error.message}</p>}
    </section>
  );
}
