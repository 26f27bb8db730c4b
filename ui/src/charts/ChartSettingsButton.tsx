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
