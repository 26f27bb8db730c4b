import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteAnswer, MemberItem, MemberList } from '@server/api/schemas/members';
import type { Session } from '@server/api/schemas/session';
import { apiDelete, apiGet, apiPost } from './client';
import { sessionQuery } from './session';

/** A role of a member, as the server names it. */
export type Role = MemberItem['role'];

/** `GET /api/members` (admins and owners; others get 403 FORBIDDEN_ROLE). */
export const membersQuery = () =>
  queryOptions({
    queryKey: ['members'],
    queryFn: ({ signal }) => apiGet<MemberList>('/api/members', undefined, signal),
    retry: false,
  });

/** The members, oldest first; asked only when `enabled` (the signed-in user manages members). */
export const useMembers = (enabled = true) =>
  useQuery({ ...membersQuery(), enabled, select: (answer) => answer.members });

/** `POST /api/members/invite`: the answer holds the link to copy. */
export function useInvite() {
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) => apiPost<InviteAnswer>('/api/members/invite', input),
  });
}

/** `POST /api/members/{userId}/role`; refreshes the list. */
export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: number; role: Role }) =>
      apiPost<MemberItem>(`/api/members/${input.userId}/role`, { role: input.role }),
    onSuccess: () => client.invalidateQueries({ queryKey: membersQuery().queryKey }),
  });
}

/** `DELETE /api/members/{userId}`; refreshes the list. */
export function useRemoveMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => apiDelete<void>(`/api/members/${userId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: membersQuery().queryKey }),
  });
}

/** `POST /api/invitations/accept`: makes the user and signs it in. */
export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; name: string; password: string; email?: string }) =>
      apiPost<Session>('/api/invitations/accept', input),
    onSuccess: (session) => {
      client.clear();
      client.setQueryData(sessionQuery().queryKey, session);
    },
  });
}
