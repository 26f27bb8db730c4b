import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { PanelLayout } from '../charts/panel-layout';
import { layoutStorageKey, usePanelLayout } from '../charts/usePanelLayout';
import { readHidden, toggleHidden, writeHidden, type WorkspaceLayouts, type WorkspaceState } from './workspace-state';

/** What the table and the charts call to change the workspace. */
export interface WorkspaceActions {
  setHidden: (ids: readonly number[]) => void;
  /** Hides (`hide` true) or shows one run in the charts. */
  setRunHidden: (runId: number, hide: boolean) => void;
  setHighlight: (runId: number | null) => void;
  /** Sets the panel layout of the metric or the System charts. */
  setLayout: (kind: keyof WorkspaceLayouts, layout: PanelLayout) => void;
}

/**
 * The workspace's state (workspace-state.ts) and its setters. Hiding writes the URL's `hide`
 * (replacing the history entry, other parameters kept) and shows at once from local state
 * until the router has applied the new URL. The panel layouts are kept here (and in this
 * browser's local storage per project, where the charts keep them without a workspace), so a
 * saved view can read and set them.
 */
export function useWorkspace(org: string, project: string): { state: WorkspaceState } & WorkspaceActions {
  const [params, setParams] = useSearchParams();
  const urlText = params.get('hide');
  const [pending, setPending] = useState<{ from: string | null; text: string | null } | null>(null);
  const text = pending && pending.from === urlText ? pending.text : urlText;
  const hidden = useMemo(() => readHidden(text), [text]);
  const [highlight, setHighlight] = useState<number | null>(null);
  const metrics = usePanelLayout(layoutStorageKey(org, project, 'metrics'));
  const system = usePanelLayout(layoutStorageKey(org, project, 'system'));

  const setHidden = useCallback(
    (ids: readonly number[]) => {
      const next = writeHidden(ids);
      setPending({ from: urlText, text: next });
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          if (next === null) out.delete('hide');
          else out.set('hide', next);
          return out;
        },
        { replace: true },
      );
    },
    [setParams, urlText],
  );
  const setRunHidden = useCallback(
    (runId: number, hide: boolean) => setHidden(toggleHidden(hidden, runId, hide)),
    [hidden, setHidden],
  );
  const changeMetrics = metrics.change;
  const changeSystem = system.change;
  const setLayout = useCallback(
    (kind: keyof WorkspaceLayouts, layout: PanelLayout) =>
      (kind === 'system' ? changeSystem : changeMetrics)(() => layout),
    [changeMetrics, changeSystem],
  );
  const layouts = useMemo(() => ({ metrics: metrics.layout, system: system.layout }), [metrics.layout, system.layout]);
  const state = useMemo(() => ({ hidden, highlight, layouts }), [hidden, highlight, layouts]);
  return { state, setHidden, setRunHidden, setHighlight, setLayout };
}
