import { useRef, useState } from 'react';
import { useColorScheme } from './useColorScheme';
import { useElementWidth } from './useElementWidth';
import { useNearViewport } from './useNearViewport';

/**
 * What a uPlot chart's figure needs: refs for the figure (watched for the viewport), the plot
 * box (measured), the uPlot host and the readout; whether it is near the viewport now and
 * has ever been (it fetches from then on), the plot's width and the colour scheme.
 */
export function useChartBox() {
  const figureRef = useRef<HTMLElement>(null);
  const plotRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const near = useNearViewport(figureRef);
  const [seen, setSeen] = useState(false);
  if (near && !seen) setSeen(true);
  const width = useElementWidth(plotRef);
  const scheme = useColorScheme();
  return { figureRef, plotRef, hostRef, tipRef, near, seen, width, scheme };
}
