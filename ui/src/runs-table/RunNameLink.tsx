import { Link } from 'react-router';

/** How many characters at a long name's end stay in view (a sweep's lr and seed). */
const TAIL_CHARS = 12;

/**
 * A run's name as a link whose end never goes out of view: a name too long for its cell is
 * cut in the middle (the start shrinks to an ellipsis, the last characters stay), so runs of a
 * sweep, which differ only in their ends, stay apart at any width.
 */
export function RunNameLink({ to, name }: { to: string; name: string }) {
  const chars = [...name];
  if (chars.length <= TAIL_CHARS + 4) return <Link to={to}>{name}</Link>;
  return (
    // The label: the two parts are flex items, which a screen reader would read apart.
    <Link to={to} className="run-name-link" aria-label={name}>
      <span className="run-name-head">{chars.slice(0, -TAIL_CHARS).join('')}</span>
      <span className="run-name-tail">{chars.slice(-TAIL_CHARS).join('')}</span>
    </Link>
  );
}
