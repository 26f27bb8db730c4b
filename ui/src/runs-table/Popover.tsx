import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A drop-down panel on a `<details>`: its summary is a real button for keyboard and screen
 * readers; Escape and a click outside close it.
 */
export function Popover({
  label,
  badge,
  children,
  align = 'left',
}: {
  label: string;
  badge?: string;
  children: ReactNode;
  align?: 'left' | 'right';
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
  return (
    <details className={`popover popover-${align}`} ref={ref}>
      <summary className="popover-button">
        {label}
        {badge && <span className="popover-badge">{badge}</span>}
      </summary>
      <div className="popover-panel">{children}</div>
    </details>
  );
}
