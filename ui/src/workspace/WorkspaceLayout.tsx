import { type ReactNode, useState } from 'react';

/**
 * The runs table and its charts: side by side on a wide screen (the charts can be hidden),
 * stacked below it on a narrower one, and on a phone one at a time with a Runs / Charts switch.
 */
export function WorkspaceLayout({ runs, charts }: { runs: ReactNode; charts: ReactNode }) {
  const [pane, setPane] = useState<'runs' | 'charts'>('runs');
  const [chartsShown, setChartsShown] = useState(true);
  // Wide screens: the charts can be put away (the table then takes the width).
  const toggle = (
    <button
      type="button"
      className="secondary workspace-charts-toggle"
      aria-pressed={chartsShown}
      title={chartsShown ? 'Hide the charts beside the table' : 'Show the charts beside the table'}
      onClick={() => setChartsShown((on) => !on)}
    >
      Charts
    </button>
  );
  return (
    <div className={`workspace pane-${pane}${chartsShown ? '' : ' charts-off'}`}>
      <div className="workspace-bar">
        <div className="view-switch workspace-switch" role="group" aria-label="Show">
          {(['runs', 'charts'] as const).map((p) => (
            <button
              key={p}
              type="button"
              className={pane === p ? 'active' : 'secondary'}
              aria-pressed={pane === p}
              onClick={() => setPane(p)}
            >
              {p === 'runs' ? 'Runs' : 'Charts'}
            </button>
          ))}
        </div>
        {!chartsShown && toggle}
      </div>
      <div className="workspace-runs">{runs}</div>
      <section className="workspace-charts" aria-labelledby="workspace-charts-title">
        {chartsShown && toggle}
        {charts}
      </section>
    </div>
  );
}
