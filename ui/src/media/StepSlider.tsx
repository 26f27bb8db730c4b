import { useId } from 'react';

/**
 * A "Step" slider over the steps that have media, with Previous/Next buttons. The slider moves
 * by position (steps may be sparse) and reads out the step number; arrow keys, Home and End
 * work on it as on any range input.
 */
export function StepSlider({
  steps,
  index,
  onIndex,
  name,
}: {
  steps: readonly number[];
  index: number;
  onIndex: (index: number) => void;
  /** What the steps are of, for the buttons' names. */
  name: string;
}) {
  const id = useId();
  const step = steps[index] ?? 0;
  const last = steps.length - 1;
  return (
    <div className="step-slider">
      <label htmlFor={id}>Step</label>
      <button
        type="button"
        className="step-btn"
        onClick={() => onIndex(index - 1)}
        disabled={index <= 0}
        aria-label={`Previous step of ${name}`}
        title="Previous step"
      >
        ‹
      </button>
      <input
        id={id}
        type="range"
        min={0}
        max={Math.max(last, 0)}
        step={1}
        value={index}
        disabled={last <= 0}
        aria-valuetext={`Step ${step} (${index + 1} of ${steps.length})`}
        onChange={(e) => onIndex(Number(e.target.value))}
      />
      <button
        type="button"
        className="step-btn"
        onClick={() => onIndex(index + 1)}
        disabled={index >= last}
        aria-label={`Next step of ${name}`}
        title="Next step"
      >
        ›
      </button>
      <output htmlFor={id} className="step-value mono" aria-live="polite">
        {step}
        <span className="muted">
          {' '}
          ({index + 1}/{steps.length})
        </span>
      </output>
    </div>
  );
}
