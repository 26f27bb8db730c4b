import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A drop-down panel on a `<details>`: its summary is a real button for keyboard and screen
 * readers; Escape and a click outside close it. `children` may be a function of `close`, for
 * a form that closes the panel once applied. With `open`, the owner opens and closes it too
 * (and hears every change through `onOpenChange`).
 */
export function Popover({
  label,
  badge,
  children,
  align = 'left',
  open,
  onOpenChange,
}: {
  label: string;
  badge?: string;
  children: ReactNode | ((close: () => void) => ReactNode);
  align?: 'left' | 'right';
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onPointer = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && details.open) {
        details.open = false;
        details.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    details.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      details.removeEventListener('keydown', onKey);
    };
  }, []);
  useEffect(() => {
    const details = ref.current;
    if (details && open !== undefined && details.open !== open) details.open = open;
  }, [open]);
  const close = () => {
    if (ref.current) ref.current.open = false;
  };
  return (
    <details className={`popover popover-${align}`} ref={ref} onToggle={(e) => onOpenChange?.(e.currentTarget.open)}>
      <summary className="popover-button">
        {label}
        {badge && <span className="popover-badge">{badge}</span>}
      </summary>
      <div className="popover-panel">{typeof children === 'function' ? children(close) : children}</div>
    </details>
  );
}
