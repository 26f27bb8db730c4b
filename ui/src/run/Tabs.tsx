import { useRef, type KeyboardEvent } from 'react';

/** One tab: its id (also its `?tab=` value) and its label. */
export interface TabSpec {
  id: string;
  label: string;
}

/** The id of the panel a tab controls, and of the tab itself (for aria-labelledby). */
export const panelId = (prefix: string, tab: string): string => `${prefix}-panel-${tab}`;
export const tabId = (prefix: string, tab: string): string => `${prefix}-tab-${tab}`;

/**
 * A tab list (role=tablist/tab): Left/Right arrows move to the previous/next tab (wrapping),
 * Home/End to the first/last, and the tab that gets focus is selected. Only the selected
 * tab is in the Tab order.
 */
export function Tabs(props: {
  label: string;
  prefix: string;
  tabs: TabSpec[];
  selected: string;
  onSelect: (id: string) => void;
}) {
  const { label, prefix, tabs, selected, onSelect } = props;
  const refs = useRef(new Map<string, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // From the focused tab: a second key press may come before the selection has re-rendered.
    const focused = tabs.findIndex((tab) => refs.current.get(tab.id) === event.target);
    const at = focused >= 0 ? focused : tabs.findIndex((tab) => tab.id === selected);
    const moves: Record<string, number> = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next]!;
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };

  return (
    <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const active = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) refs.current.set(tab.id, el);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={tabId(prefix, tab.id)}
            aria-selected={active}
            aria-controls={panelId(prefix, tab.id)}
            tabIndex={active ? 0 : -1}
            className={active ? 'tab tab-active' : 'tab'}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
