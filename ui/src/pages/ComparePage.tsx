/** Placeholder while the page is being built. */
export function ComparePage() {
  return <h1>ComparePage</h1>;
}
