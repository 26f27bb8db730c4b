import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProjectList } from '@server/api/schemas/projects';
import { apiGet } from './client';

/** `GET /api/runs/projects`. */
export const projectsQuery = () =>
  queryOptions({
    queryKey: ['projects'],
    queryFn: ({ signal }) => apiGet<ProjectList>('/api/runs/projects', undefined, signal),
  });

/** The organization's projects, newest first. */
export const useProjects = () => useQuery({ ...projectsQuery(), select: (answer) => answer.projects });
