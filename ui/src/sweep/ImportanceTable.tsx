import { formatValue } from '../format';

/** One config key's row: its correlation with the metric (null: not defined) and its forest importance (0..1). */
export interface ImportanceRow {
  key: string;
  correlation: number | null;
  importance: number;
}

/**
 * Parameter importance for the metric: each config key's forest importance (bar and share)
 * and its correlation with the metric, most important first.
 */
export function ImportanceTable({
  metric,
  rows,
  runs,
}: {
  metric: string;
  rows: readonly ImportanceRow[];
  runs: number;
}) {
  const sorted = [...rows].sort((a, b) => b.importance - a.importance || a.key.localeCompare(b.key));
  return (
    <table className="sweep-importance">
      <caption>
        Parameter importance for {metric}{' '}
        <span className="muted">
          ({runs} runs; importance: a random forest of 50 trees fitted in this browser to the metric’s last value)
        </span>
      </caption>
      <thead>
        <tr>
          <th scope="col">Config key</th>
          <th scope="col">Importance</th>
          <th scope="col">Correlation</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
          <tr key={r.key}>
            <th scope="row" className="mono">
              {r.key}
            </th>
            <td>
              <span className="sweep-bar" style={{ width: `${(r.importance * 5).toFixed(2)}rem` }} aria-hidden="true" />
              <span>{(r.importance * 100).toFixed(0)}%</span>
            </td>
            <td className={r.correlation === null ? 'muted' : r.correlation < 0 ? 'sweep-neg' : 'sweep-pos'}>
              {r.correlation === null ? '—' : formatValue(Number(r.correlation.toFixed(3)))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
