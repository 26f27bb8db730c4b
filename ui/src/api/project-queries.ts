import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProjectList } from '@server/api/schemas/projects';
import { apiGet } from './client';

/** `GET /api/runs/projects`. */
export const projectsQuery = () =>
  queryOptions({
    queryKey: ['projects'],
    queryFn: ({ signal }) => apiGet<ProjectList>('/api/runs/projects', undefined, signal),
  });

/** How often the projects page asks again, so "last activity" follows runs that stream. */
const PROJECTS_POLL_MS = 30_000;

/** The organization's projects, newest first; with `poll`, asked again every 30 s while the tab is visible. */
export const useProjects = (poll = false) =>
  useQuery({
    ...projectsQuery(),
    select: (answer) => answer.projects,
    refetchInterval: poll ? PROJECTS_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
