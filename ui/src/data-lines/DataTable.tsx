import { useId, useMemo, useState } from 'react';
import type { DataLine } from '@server/api/schemas/logs';
import { formatTime } from '../format';
import { cellText, parseJson, parseTable } from './parse-data';

type Dir = 'ascending' | 'descending';

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  const x = cellText(a);
  const y = cellText(b);
  const nx = Number(x);
  const ny = Number(y);
  if (x !== '' && y !== '' && Number.isFinite(nx) && Number.isFinite(ny)) return nx - ny;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A table data line as a sortable table (column header buttons; aria-sort on the sorted
 * column), with a step selector when the table was logged at more than one step.
 */
export function DataTable({ logName, lines }: { logName: string; lines: DataLine[] }) {
  const [index, setIndex] = useState(lines.length - 1);
  const [sort, setSort] = useState<{ col: number; dir: Dir } | null>(null);
  const stepId = useId();
  const line = lines[Math.min(index, lines.length - 1)];
  const table = useMemo(() => (line ? parseTable(parseJson(line.data)) : null), [line]);
  const rows = useMemo(() => {
    if (!table) return [];
    if (!sort) return table.rows;
    const sign = sort.dir === 'ascending' ? 1 : -1;
    return [...table.rows].sort((a, b) => sign * compare(a[sort.col], b[sort.col]));
  }, [table, sort]);

  const numeric = useMemo(
    () =>
      table?.columns.map(
        (_, i) => table.rows.length > 0 && table.rows.every((r) => typeof r[i] === 'number' || r[i] == null),
      ) ?? [],
    [table],
  );

  const toggle = (col: number) =>
    setSort((s) =>
      s && s.col === col ? { col, dir: s.dir === 'ascending' ? 'descending' : 'ascending' } : { col, dir: 'ascending' },
    );

  return (
    <div className="data-table">
      {lines.length > 1 && (
        <div className="data-toolbar">
          <label htmlFor={stepId}>Step</label>
          <select id={stepId} value={index} onChange={(e) => setIndex(Number(e.target.value))}>
            {lines.map((l, i) => (
              <option key={`${l.step}-${i}`} value={i}>
                {l.step}
              </option>
            ))}
          </select>
          <span className="muted">
            {lines.length} steps{line ? ` · logged ${formatTime(line.time)}` : ''}
          </span>
        </div>
      )}
      {!table ? (
        <pre className="data-raw">{line?.data}</pre>
      ) : (
        <div className="scroll-x">
          <table className="data-grid">
            <caption className="visually-hidden">
              {logName} at step {line?.step}
              {sort ? `, sorted by ${table.columns[sort.col]} ${sort.dir}` : ''}
            </caption>
            <thead>
              <tr>
                {table.columns.map((c, i) => (
                  <th
                    key={`${c}-${i}`}
                    scope="col"
                    className={numeric[i] ? 'num' : undefined}
                    aria-sort={sort?.col === i ? sort.dir : undefined}
                  >
                    <button type="button" className="sort-button" onClick={() => toggle(i)}>
                      {c}
                      <span aria-hidden="true" className="sort-mark">
                        {sort?.col === i ? (sort.dir === 'ascending' ? '▲' : '▼') : '↕'}
                      </span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>
                  {table.columns.map((c, j) => (
                    <td key={`${c}-${j}`} className={typeof r[j] === 'number' ? 'num' : undefined}>
                      {cellText(r[j])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
