import { type ReactNode, useId } from 'react';

/**
 * A labelled control: the label points at the control by id (not wrapped around it), so the
 * control's name is the label alone, not the label plus a select's option text.
 */
export function Field({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}
