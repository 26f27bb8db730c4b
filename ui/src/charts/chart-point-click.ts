import type uPlot from 'uplot';
import type { ChartModel } from './chart-model';

/** A point of a chart someone clicked: its run, step and time (epoch ms). */
export interface PickedPoint {
  runId: number;
  step: number;
  time: number;
}

/** Farthest a click may land from a point, in CSS pixels along x. */
const REACH_PX = 16;
/** A press that moves farther than this is a drag (a zoom), not a click. */
const DRAG_PX = 3;
/** Wait this long for a second click: a double-click resets the zoom instead. */
const DOUBLE_CLICK_MS = 250;

/** The point nearest to `left` (CSS px in the plot) along x over every trace, if within reach. */
export function nearestPoint(u: uPlot, model: ChartModel, left: number): PickedPoint | null {
  let best: PickedPoint | null = null;
  let bestPx = REACH_PX;
  for (const trace of model.traces) {
    for (let i = 0; i < trace.xs.length; i++) {
      const px = Math.abs(u.valToPos(trace.xs[i]!, 'x') - left);
      if (px <= bestPx) {
        bestPx = px;
        best = { runId: trace.runId, step: trace.steps[i]!, time: trace.times[i]! };
      }
    }
  }
  return best;
}

/**
 * Calls `onPick` with the point nearest a single click on the plot (not a drag, not a
 * double-click); returns the detach function.
 */
export function attachPointClick(u: uPlot, model: () => ChartModel, onPick: (point: PickedPoint) => void): () => void {
  let down: { x: number; y: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onDown = (event: MouseEvent) => {
    down = { x: event.clientX, y: event.clientY };
  };
  const onClick = (event: MouseEvent) => {
    clearTimeout(timer);
    const moved = down ? Math.hypot(event.clientX - down.x, event.clientY - down.y) : 0;
    if (event.detail > 1 || moved > DRAG_PX) return;
    const left = event.clientX - u.over.getBoundingClientRect().left;
    const point = nearestPoint(u, model(), left);
    if (point) timer = setTimeout(() => onPick(point), DOUBLE_CLICK_MS);
  };
  u.over.addEventListener('mousedown', onDown);
  u.over.addEventListener('click', onClick);
  return () => {
    clearTimeout(timer);
    u.over.removeEventListener('mousedown', onDown);
    u.over.removeEventListener('click', onClick);
  };
}
