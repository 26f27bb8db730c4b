import type uPlot from 'uplot';

/**
 * Whether the pointer is over a chart's plot: the synced crosshair moves on every chart of
 * the page, and only the hovered one shows its readout. `attach(u)` starts watching a uPlot
 * instance and returns the function that stops; `onLeave` runs when the pointer leaves.
 */
export function hoverTracker(onLeave: () => void) {
  let over = false;
  return {
    hovered: () => over,
    attach(u: uPlot): () => void {
      const enter = () => {
        over = true;
      };
      const leave = () => {
        over = false;
        onLeave();
      };
      u.over.addEventListener('mouseenter', enter);
      u.over.addEventListener('mouseleave', leave);
      return () => {
        u.over.removeEventListener('mouseenter', enter);
        u.over.removeEventListener('mouseleave', leave);
      };
    },
  };
}
