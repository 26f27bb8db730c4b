import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal confirmation (Escape or Cancel keeps things as they are): a title, what will
 * happen, the action's error as an alert, Cancel and a danger button that says what it does.
 */
export function ConfirmDialog(props: {
  title: ReactNode;
  children: ReactNode;
  /** The danger button's label, and its label while the action runs. */
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  error: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  // Opened once mounted; unmounting removes it (no close() here: StrictMode's trial unmount
  // would queue a close event that ends the dialog it just reopened).
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="api-keys-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={props.onClose}
    >
      <h2 id={`${id}-title`}>{props.title}</h2>
      <div id={`${id}-body`}>{props.children}</div>
      {props.error !== undefined && (
        <p role="alert" className="api-keys-error">
          {props.error}
        </p>
      )}
      <div className="api-keys-dialog-actions">
        <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" disabled={props.pending} onClick={props.onConfirm}>
          {props.pending ? props.pendingLabel : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
