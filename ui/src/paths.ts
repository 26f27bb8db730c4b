/** The dashboard's page addresses, the same shape as the `url`s the API hands out. */

const seg = encodeURIComponent;

/** The projects of an organization. */
export const projectsPath = (org: string): string => `/o/${seg(org)}/projects`;

/** A project's runs table. */
export const projectPath = (org: string, project: string): string => `${projectsPath(org)}/${seg(project)}`;

/** A project's trash. */
export const trashPath = (org: string, project: string): string => `${projectPath(org, project)}/trash`;

/** A project's settings page. */
export const projectSettingsPath = (org: string, project: string): string => `${projectPath(org, project)}/settings`;

/** A run's page, addressed by its SQID. */
export const runPath = (org: string, project: string, sqid: string): string =>
  `${projectPath(org, project)}/${seg(sqid)}`;

/** The compare page of runs (numeric run ids, as `comparisonUrl` gives them). */
export const comparePath = (org: string, project: string, runIds: readonly number[]): string =>
  `${projectPath(org, project)}/compare?runs=${runIds.join(',')}`;

/** The sign-in page that returns to `next` (a same-site path) afterwards. */
export const signInPath = (next?: string): string =>
  next && next !== '/' ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in';
