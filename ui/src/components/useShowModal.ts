import { useEffect, useRef } from 'react';

/**
 * A ref for a `<dialog>` that opens it as a modal once mounted. Unmounting removes it; there
 * is no close() in a cleanup, since StrictMode's trial unmount would queue a close event that
 * ends the dialog it just reopened.
 */
export function useShowModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  return dialog;
}
