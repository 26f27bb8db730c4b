/** Placeholder while the page is being built. */
export function RunPage() {
  return <h1>RunPage</h1>;
}
