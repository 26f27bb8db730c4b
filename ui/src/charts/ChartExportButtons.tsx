/**
 * A chart's PNG and CSV buttons ("Download <logName> as PNG", "… as CSV"), for the ungrouped
 * and the grouped charts alike; what each saves is the chart's own (chart-export.ts).
 */
export function ChartExportButtons({
  logName,
  onPng,
  onCsv,
  pngDisabled,
  csvDisabled,
}: {
  logName: string;
  onPng: () => void;
  onCsv: () => void;
  pngDisabled: boolean;
  csvDisabled: boolean;
}) {
  return (
    <>
      <button
        type="button"
        className="secondary chart-button"
        aria-label={`Download ${logName} as PNG`}
        title={`Download ${logName} as PNG`}
        disabled={pngDisabled}
        onClick={onPng}
      >
        PNG
      </button>
      <button
        type="button"
        className="secondary chart-button"
        aria-label={`Download ${logName} as CSV`}
        title={`Download ${logName} as CSV`}
        disabled={csvDisabled}
        onClick={onCsv}
      >
        CSV
      </button>
    </>
  );
}
