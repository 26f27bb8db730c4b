import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A button that opens a panel below it (`role="dialog"`, named `panelLabel`): a click outside
 * or Escape closes it (Escape puts the focus back on the button). The owner holds `open`.
 */
export function Dropdown({
  label,
  panelLabel,
  open,
  onOpenChange,
  children,
}: {
  label: ReactNode;
  panelLabel: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const root = ref.current;
    const onPointer = (event: PointerEvent) => {
      if (root && !root.contains(event.target as Node)) onOpenChange(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      onOpenChange(false);
      root?.querySelector('button')?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    root?.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      root?.removeEventListener('keydown', onKey);
    };
  }, [open, onOpenChange]);
  return (
    <div className="popover popover-right" ref={ref}>
      <button
        type="button"
        className="secondary popover-button views-button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => onOpenChange(!open)}
      >
        {label}
        <span className="views-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div className="popover-panel views-panel" id={id} role="dialog" aria-label={panelLabel}>
          {children}
        </div>
      )}
    </div>
  );
}
