import { setFollowChartStep, useFollowChartStep } from './follow-chart-step';

/** The "Follow chart step" toggle: when pressed, media sliders move to the step the charts' crosshair last pointed at. */
export function FollowChartStepToggle() {
  const on = useFollowChartStep();
  return (
    <button
      type="button"
      className="secondary media-follow"
      aria-pressed={on}
      title="Move each step slider to the step last pointed at on a chart (the nearest logged step at or below it)"
      onClick={() => setFollowChartStep(!on)}
    >
      Follow chart step
    </button>
  );
}
