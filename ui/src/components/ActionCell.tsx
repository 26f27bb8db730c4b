import type { ReactNode } from 'react';

/**
 * The last cell of a table row: one button acting on that row (Revoke, Restore). `name` is the
 * button's accessible name when the text alone would not say which row; with `show` false the
 * cell stays (the columns keep their places) and holds no button.
 */
export function ActionCell(props: {
  children: ReactNode;
  onClick: () => void;
  name?: string;
  variant?: string;
  disabled?: boolean;
  show?: boolean;
  className?: string;
}) {
  const { show = true, variant = 'secondary' } = props;
  return (
    <td className={props.className}>
      {show && (
        <button
          type="button"
          className={variant}
          aria-label={props.name}
          disabled={props.disabled}
          onClick={props.onClick}
        >
          {props.children}
        </button>
      )}
    </td>
  );
}
