/** Placeholder while the page is being built. */
export function SignInPage() {
  return <h1>SignInPage</h1>;
}
