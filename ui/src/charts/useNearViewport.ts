import { useLayoutEffect, useState, type RefObject } from 'react';

/** How far outside the viewport a chart starts loading. */
const MARGIN_PX = 400;
const MARGIN = `${MARGIN_PX}px 0px`;

const listeners = new Map<Element, (near: boolean) => void>();
let observer: IntersectionObserver | null = null;

/** One observer for every chart on the page (hundreds of charts, one callback). */
function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: MARGIN },
  );
  return observer;
}

/** True while the element is within a screen-and-a-bit of the viewport. */
export function useNearViewport(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Known at once for what is on screen at mount (the observer reports a frame later); a
    // hidden element (a closed tab) has no box and waits for the observer.
    const box = el.getBoundingClientRect();
    if ((box.width > 0 || box.height > 0) && box.top < window.innerHeight + MARGIN_PX && box.bottom > -MARGIN_PX) {
      setNear(true);
    }
    const obs = sharedObserver();
    listeners.set(el, setNear);
    obs.observe(el);
    return () => {
      obs.unobserve(el);
      listeners.delete(el);
    };
  }, [ref]);
  return near;
}
