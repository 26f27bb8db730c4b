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
  const buttons = [
    { kind: 'PNG', disabled: pngDisabled, onClick: onPng },
    { kind: 'CSV', disabled: csvDisabled, onClick: onCsv },
  ];
  return buttons.map(({ kind, disabled, onClick }) => (
    <button
      key={kind}
      type="button"
      className="secondary chart-button"
      aria-label={`Download ${logName} as ${kind}`}
      title={`Download ${logName} as ${kind}`}
      disabled={disabled}
      onClick={onClick}
    >
      {kind}
    </button>
  ));
}
