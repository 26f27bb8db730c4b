import { Link } from 'react-router';
import type { RunDetails } from '@server/api/schemas/runs';
import { pathOf } from '../run/url-path';
import { MAX_COMPARE } from './run-ids';

const list = (items: readonly (string | number)[]) => items.join(', ');

/**
 * Why some of the asked runs are not compared: not run ids, not found in this organization
 * (unknown or another organization's: the API does not tell them apart), in another
 * project, or past the 100-run limit.
 */
export function CompareProblems(props: {
  invalid: string[];
  missing: number[];
  elsewhere: RunDetails[];
  dropped: number;
  project: string;
}) {
  const { invalid, missing, elsewhere, dropped, project } = props;
  if (invalid.length + missing.length + elsewhere.length + dropped === 0) return null;
  return (
    <div className="compare-problems" role="alert">
      {missing.length > 0 && (
        <p>
          {missing.length === 1 ? 'Run' : 'Runs'} {list(missing)} {missing.length === 1 ? 'was' : 'were'} not found in
          your organization and {missing.length === 1 ? 'is' : 'are'} left out.
        </p>
      )}
      {invalid.length > 0 && (
        <p>
          Not run ids: {list(invalid.map((t) => `“${t}”`))}. Run ids are whole numbers, as in <code>?runs=1,2,3</code>.
        </p>
      )}
      {elsewhere.map((run) => (
        <p key={run.id}>
          Run {run.id} (<Link to={pathOf(run.url)}>{run.name}</Link>) belongs to project {run.projectName}, not{' '}
          {project}, and is left out.
        </p>
      ))}
      {dropped > 0 && (
        <p>
          At most {MAX_COMPARE} runs can be compared; the last {dropped} are left out.
        </p>
      )}
    </div>
  );
}
