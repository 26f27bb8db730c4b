/**
 * Where a set of charts keeps its PanelLayout: with the parent that owns it (a saved view:
 * `layout` + `onLayoutChange`), or else in this browser's local storage under a key per
 * organization, project and kind of charts, so a reload (and the project's other pages with
 * the same kind of charts) keeps it.
 */
import { useCallback, useRef, useState } from 'react';
import { emptyLayout, parseLayout, type PanelLayout } from './panel-layout';

/** The local-storage key of a project's layout of one kind of charts. */
export const layoutStorageKey = (org: string, project: string, kind: string): string =>
  `stepwise:panels:${org}/${project}:${kind}`;

function readStored(key: string | null): PanelLayout {
  if (key === null) return emptyLayout();
  try {
    const text = localStorage.getItem(key);
    return text === null ? emptyLayout() : parseLayout(JSON.parse(text));
  } catch {
    // Unreadable storage or JSON: start afresh.
    return emptyLayout();
  }
}

function writeStored(key: string | null, layout: PanelLayout): void {
  if (key === null) return;
  try {
    localStorage.setItem(key, JSON.stringify(layout));
  } catch {
    // Storage full or denied: the layout lasts as long as the page.
  }
}

/**
 * The layout in force and `change(fn)`, which applies `fn` to the latest layout (several
 * changes before a render compose) and hands the result to the owner or to local storage
 * under `storageKey` (null: the page's memory only, until a key is known).
 */
export function usePanelLayout(
  storageKey: string | null,
  owned?: { layout?: PanelLayout; onLayoutChange?: (layout: PanelLayout) => void },
): { layout: PanelLayout; change: (fn: (layout: PanelLayout) => PanelLayout) => void } {
  const [local, setLocal] = useState(() => ({ key: storageKey, layout: readStored(storageKey) }));
  let current = local;
  if (local.key !== storageKey) {
    current = { key: storageKey, layout: readStored(storageKey) };
    setLocal(current);
  }
  const controlled = owned?.layout !== undefined;
  const layout = controlled ? owned.layout! : current.layout;
  const latest = useRef(layout);
  latest.current = layout;
  const onLayoutChange = owned?.onLayoutChange;

  const change = useCallback(
    (fn: (layout: PanelLayout) => PanelLayout) => {
      const next = fn(latest.current);
      if (next === latest.current) return;
      latest.current = next;
      if (controlled) onLayoutChange?.(next);
      else {
        setLocal({ key: storageKey, layout: next });
        writeStored(storageKey, next);
        onLayoutChange?.(next);
      }
    },
    [controlled, onLayoutChange, storageKey],
  );
  return { layout, change };
}
