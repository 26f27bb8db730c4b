/** Placeholder while the page is being built. */
export function NotFoundPage() {
  return <h1>NotFoundPage</h1>;
}
