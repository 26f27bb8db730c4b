/** Placeholder while the page is being built. */
export function ProjectsPage() {
  return <h1>ProjectsPage</h1>;
}
