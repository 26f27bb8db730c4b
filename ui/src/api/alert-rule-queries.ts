/** A project's alert rules (docs/api.md §15): the list and the writes, which refresh it. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertRule, AlertRuleList } from '@server/api/schemas/alert-rules';
import { apiDelete, apiGet, apiPost } from './client';

/** `GET /api/alert-rules?projectName=`: oldest first. */
export const alertRulesQuery = (projectName: string) =>
  queryOptions({
    queryKey: ['alert-rules', projectName],
    queryFn: ({ signal }) => apiGet<AlertRuleList>('/api/alert-rules', { projectName }, signal),
  });

export const useAlertRules = (projectName: string) =>
  useQuery({ ...alertRulesQuery(projectName), select: (answer) => answer.rules });

/** What a rule is created with. */
export interface AlertRuleFields {
  logName: string;
  kind: 'above' | 'below' | 'non_finite' | 'no_improvement';
  threshold?: number;
  steps?: number;
  goal?: 'min' | 'max';
}

/** Adds and deletes a project's rules. */
export function useAlertRuleWrites(projectName: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: alertRulesQuery(projectName).queryKey });
  return {
    add: useMutation({
      mutationFn: (fields: AlertRuleFields) => apiPost<AlertRule>('/api/alert-rules', { projectName, ...fields }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (ruleId: number) => apiDelete<null>(`/api/alert-rules/${ruleId}`),
      onSuccess: refresh,
    }),
  };
}
