import { lazy, type ComponentType } from 'react';

/**
 * A page whose code is its own chunk, loading from `code` (an import started early). Once the
 * chunk is in, the page renders at once; only before that does it suspend. React.lazy alone
 * suspends on its first render even when the chunk has long arrived, and React keeps a
 * Suspense fallback on screen for at least 300 ms once shown: the compare page waited that
 * long before asking for its runs.
 */
export function lazyPage<P extends object>(code: Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  void code.then(
    (page) => (loaded = page),
    () => undefined, // the lazy page below throws the error to its boundary
  );
  const Suspending = lazy(() => code.then((page) => ({ default: page })));
  return function Page(props: P) {
    const Shown = loaded ?? Suspending;
    return <Shown {...props} />;
  };
}
