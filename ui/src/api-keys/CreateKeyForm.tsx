import { type FormEvent, useId, useState } from 'react';
import type { CreatedKey } from '@server/api/schemas/api-keys';
import { useCreateKey } from '../api/key-queries';

/** `YYYY-MM-DD` of a local date. */
const localDate = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The end of a picked day (local time) as ISO 8601: the key works through that whole day. */
function endOfDay(value: string): string {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 23, 59, 59, 999).toISOString();
}

/** The "Create key" form: a name and an optional last day; hands the created key up. */
export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const create = useCreateKey();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, ...(expires ? { expiresAt: endOfDay(expires) } : {}) },
      {
        onSuccess: (key) => {
          setName('');
          setExpires('');
          onCreated(key);
        },
      },
    );
  };
  return (
    <section className="card api-keys-create" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create key</h2>
      <form onSubmit={submit} className="api-keys-form">
        <div className="api-keys-field">
          <label htmlFor={`${id}-name`}>Key name</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={100}
            placeholder="laptop, ci, cluster…"
            autoComplete="off"
          />
        </div>
        <div className="api-keys-field">
          <label htmlFor={`${id}-expires`}>Expires</label>
          <input
            id={`${id}-expires`}
            type="date"
            value={expires}
            min={localDate(new Date())}
            onChange={(e) => setExpires(e.target.value)}
            aria-describedby={`${id}-expires-hint`}
          />
          <span id={`${id}-expires-hint`} className="muted api-keys-hint">
            Optional: the key works through this day. Empty: no expiry.
          </span>
        </div>
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      {create.isError && (
        <p role="alert" className="api-keys-error">
          {create.error.message}
        </p>
      )}
    </section>
  );
}
