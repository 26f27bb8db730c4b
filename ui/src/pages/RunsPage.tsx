/** Placeholder while the page is being built. */
export function RunsPage() {
  return <h1>RunsPage</h1>;
}
