import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from './client';

/** One project of `GET /api/runs/projects`. */
export interface Project {
  id: number;
  name: string;
  createdAt: string;
  /** Moves when a run is created in the project: the last activity the API knows. */
  updatedAt: string;
  runCount: number;
}

/** `GET /api/runs/projects`. */
export const projectsQuery = () =>
  queryOptions({
    queryKey: ['projects'],
    queryFn: ({ signal }) => apiGet<{ projects: Project[] }>('/api/runs/projects', undefined, signal),
  });

/** The organization's projects, newest first. */
export const useProjects = () => useQuery({ ...projectsQuery(), select: (answer) => answer.projects });
