import { type ReactNode, useState } from 'react';

/** The "Chart settings" button of a chart's caption: it opens the chart's settings dialog. */
export function ChartSettingsButton({ logName, open, onOpen }: { logName: string; open: boolean; onOpen: () => void }) {
  return (
    <button
      type="button"
      className="secondary chart-button"
      aria-haspopup="dialog"
      aria-expanded={open}
      title={`Settings of ${logName}`}
      onClick={onOpen}
    >
      <span aria-hidden="true">⚙</span>
      <span className="visually-hidden">Chart settings</span>
    </button>
  );
}

/**
 * A chart's settings dialog and the caption button that opens it, for a chart given
 * `renderSettings` (none without it): the one open state both kinds of chart keep.
 */
export function useChartSettingsDialog(
  logName: string,
  renderSettings: ((close: () => void) => ReactNode) | undefined,
  openAtFirst = false,
): { button: ReactNode; dialog: ReactNode } {
  const [open, setOpen] = useState(openAtFirst);
  if (!renderSettings) return { button: null, dialog: null };
  return {
    button: <ChartSettingsButton logName={logName} open={open} onOpen={() => setOpen(true)} />,
    dialog: open ? renderSettings(() => setOpen(false)) : null,
  };
}
