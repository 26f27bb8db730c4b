import { type FormEvent, useId, useState } from 'react';
import type { InviteAnswer, MemberItem } from '@server/api/schemas/members';
import { type Role, useChangeRole, useInvite, useMembers, useRemoveMember } from '../api/member-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { TableHead } from '../components/TableHead';
import { CopyBlock } from '../projects/CopyBlock';
import { ROLE_CHOICES, rolesToGrant } from '../people/roles';
import { useAdminRole } from '../people/useAdminRole';
import '../projects/snippet.css';
import './people-pages.css';

/** The invite form: an email and a role; the answer's link is shown to copy. */
function InviteForm({ roles }: { roles: readonly Role[] }) {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [link, setLink] = useState<InviteAnswer | null>(null);
  const roleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '') return;
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (answer) => {
          setLink(answer);
          setEmail('');
        },
      },
    );
  };
  return (
    <section className="card people-section" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form className="people-form" onSubmit={submit}>
        <label>
          <span>Email</span>
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </label>
        <div className="people-field">
          <label htmlFor={roleId}>Role</label>
          <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={invite.isPending || email.trim() === ''}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      {invite.isError && (
        <p className="people-error" role="alert">
          {invite.error.message}
        </p>
      )}
      {link && (
        <div className="people-link">
          <p>
            Send this link to the person you invited. It works once, until {new Date(link.expiresAt).toLocaleString()}.
          </p>
          <CopyBlock code={link.url} label="Invitation link" />
        </div>
      )}
    </section>
  );
}

/** One member's row: name, email, role (a select), joined, Remove. */
function MemberRow({ member, roles, self }: { member: MemberItem; roles: readonly Role[]; self: boolean }) {
  const change = useChangeRole();
  const remove = useRemoveMember();
  const editable = !self && roles.includes(member.role);
  const problem = change.error ?? remove.error;
  return (
    <tr>
      <td>{member.name}</td>
      <td>{member.email ?? '—'}</td>
      <td>
        {editable ? (
          <select
            aria-label={`Role of ${member.name}`}
            value={member.role}
            disabled={change.isPending}
            onChange={(e) => change.mutate({ userId: member.userId, role: e.target.value as Role })}
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          member.role
        )}
      </td>
      <td>{new Date(member.joinedAt).toLocaleDateString()}</td>
      <td>
        {editable && (
          <button
            type="button"
            className="secondary"
            aria-label={`Remove ${member.name}`}
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Remove ${member.name} from the organization? Their keys and sessions end.`)) {
                remove.mutate(member.userId);
              }
            }}
          >
            Remove
          </button>
        )}
        {problem && (
          <span className="people-error" role="alert">
            {problem.message}
          </span>
        )}
      </td>
    </tr>
  );
}

/** `/members`: the organization's members for its admins and owners; others see why they cannot. */
export function MembersPage() {
  const { account, admin } = useAdminRole();
  const members = useMembers(admin);
  if (account.isPending) return <Loading />;
  if (account.isError) return <ErrorState error={account.error} onRetry={() => void account.refetch()} />;
  if (!admin) {
    return (
      <div className="people-page">
        <h1>Members</h1>
        <Empty title="Only admins can manage members">
          You are a {account.data.organization.role} of {account.data.organization.slug}. Ask an admin or owner to
          invite people or change roles.
        </Empty>
      </div>
    );
  }
  const roles = rolesToGrant(account.data.organization.role);
  return (
    <div className="people-page">
      <h1>Members</h1>
      <p className="muted">Roles: {ROLE_CHOICES.map((r) => `${r.role} — ${r.text}`).join('; ')}.</p>
      <InviteForm roles={roles} />
      <section className="card people-section" aria-labelledby="members-title">
        <h2 id="members-title">Members of {account.data.organization.slug}</h2>
        {members.isPending && <Loading />}
        {members.isError && <ErrorState error={members.error} onRetry={() => void members.refetch()} />}
        {members.data && (
          <div className="people-table-wrap">
            <table className="people-table">
              <TableHead labels={['Name', 'Email', 'Role', 'Joined']} />
              <tbody>
                {members.data.map((m) => (
                  <MemberRow key={m.userId} member={m} roles={roles} self={String(m.userId) === account.data.id} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
