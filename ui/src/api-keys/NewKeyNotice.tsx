import { useEffect, useId, useRef, useState } from 'react';
import type { CreatedKey } from '@server/api/schemas/api-keys';
import { copyInputText } from './copy-text';

/** The key just created, shown this once in a read-only field with a Copy button. */
export function NewKeyNotice({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const id = useId();
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [created.key]);
  return (
    <section className="card api-keys-new" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Key “{created.name}” created</h2>
      <p className="warning-note">
        Copy it now: it will not be shown again. Stepwise keeps only a hash of it; if you lose it, revoke it and create
        another.
      </p>
      <label htmlFor={`${id}-key`}>New API key</label>
      <div className="api-keys-new-row">
        <input
          id={`${id}-key`}
          ref={input}
          className="mono"
          readOnly
          value={created.key}
          spellCheck={false}
          onFocus={(e) => e.target.select()}
        />
        <button
          type="button"
          onClick={() => {
            if (!input.current) return;
            void copyInputText(input.current).then((ok) => setCopy(ok ? 'copied' : 'failed'));
          }}
        >
          Copy
        </button>
      </div>
      <p className="muted api-keys-copy-state" role="status">
        {copy === 'copied'
          ? 'Copied to the clipboard.'
          : copy === 'failed'
            ? 'Selected: press Ctrl+C (⌘C) to copy.'
            : ''}
      </p>
      <button type="button" className="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}
