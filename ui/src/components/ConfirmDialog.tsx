import type { ReactNode } from 'react';
import { useId } from 'react';
import { useShowModal } from './useShowModal';
import './confirm-dialog.css';

/**
 * A modal that asks before a change that cannot be taken back: `title` names it, `children`
 * say what happens, the confirm button (class danger) runs `onConfirm`. Escape or Cancel
 * closes it, and `onClose` runs whenever it closes. `error`, when given, is shown as an alert.
 */
export function ConfirmDialog({
  title,
  children,
  error,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
}: {
  title: ReactNode;
  children: ReactNode;
  error?: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useShowModal();
  const id = useId();
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={onClose}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-body`}>{children}</div>
      {error !== undefined && <p role="alert">{error}</p>}
      <div className="confirm-actions">
        <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
