/**
 * Where a page that owns the metric charts' panel layout (the project workspace: a saved view
 * stores it) takes changes made by charts rendered below it that are handed the layout
 * alone (the grouped charts beside the runs table). Null: no owner above.
 */
import { createContext } from 'react';
import type { PanelLayout } from './panel-layout';

export const MetricLayoutChange = createContext<((layout: PanelLayout) => void) | null>(null);
