import { useQuery } from '@tanstack/react-query';
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

/** The organization's projects, newest first. */
export function useProjects() {
  return useQuery({
    queryKey: ['projects'],
    queryFn: ({ signal }) => apiGet<{ projects: Project[] }>('/api/runs/projects', undefined, signal),
    select: (answer) => answer.projects,
  });
}
