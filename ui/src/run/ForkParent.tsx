import { Link } from 'react-router';
import { useRunDetails } from '../api/run-queries';
import { pathOf } from './url-path';

/** The run this one was forked from, as a link showing its name, and the fork step. */
export function ForkParent({ parentId, forkStep }: { parentId: number; forkStep: number | null }) {
  const parent = useRunDetails(parentId);
  const step = forkStep === null ? null : <> at step {forkStep.toLocaleString()}</>;
  if (parent.isPending) {
    return (
      <span className="muted">
        run {parentId}
        {step}
      </span>
    );
  }
  if (parent.isError) {
    return (
      <span>
        run {parentId} <span className="muted">(not available: {parent.error.message})</span>
        {step}
      </span>
    );
  }
  return (
    <span>
      <Link to={pathOf(parent.data.url)}>{parent.data.name}</Link>{' '}
      <span className="muted mono">{parent.data.displayId}</span>
      {step}
    </span>
  );
}
