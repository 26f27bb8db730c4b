import { useMemo, useState } from 'react';
import { swatchCss } from '../charts/run-colors';
import { Empty } from '../components/States';
import { configRows } from '@server/domain/config-diff';
import type { ColoredRun } from './CompareRunList';

/**
 * The runs' configs side by side, flattened to dotted keys: by default only the keys whose
 * values differ (a missing key differs from any value); "Show all keys" lists every key.
 */
export function ConfigDiff({ runs }: { runs: ColoredRun[] }) {
  const [showAll, setShowAll] = useState(false);
  const rows = useMemo(() => configRows(runs.map(({ run }) => run.config)), [runs]);
  const differing = rows.filter((row) => row.differs).length;
  const shown = showAll ? rows : rows.filter((row) => row.differs);
  return (
    <>
      <div className="config-diff-bar">
        <span className="muted">
          {differing} of {rows.length} {rows.length === 1 ? 'key differs' : 'keys differ'}
        </span>
        <label className="checkbox">
          <input type="checkbox" checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />
          Show all keys
        </label>
      </div>
      {rows.length === 0 ? (
        <Empty title="No config recorded">None of these runs has a config.</Empty>
      ) : shown.length === 0 ? (
        <Empty title="All configs match">Every key has the same value in every run.</Empty>
      ) : (
        <div className="scroll-x card table-card">
          <table className="config-diff">
            <caption className="visually-hidden">
              {showAll ? 'Config of each run' : 'Config keys whose values differ between the runs'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                {runs.map(({ run, style }) => (
                  <th scope="col" key={run.id}>
                    <span className="swatch" style={swatchCss(style)} aria-hidden="true" /> {run.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.key} className={row.differs ? 'differs' : undefined}>
                  <th scope="row" className="mono">
                    {row.key}
                  </th>
                  {row.values.map((value, i) => (
                    <td key={runs[i]!.run.id} className="mono">
                      {value ?? <span className="muted">—</span>}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
