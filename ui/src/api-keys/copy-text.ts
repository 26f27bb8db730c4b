/**
 * Copies an input's text: the Clipboard API where the page may use it, else the selection
 * and execCommand. Leaves the text selected either way, so Ctrl+C works if both fail.
 */
export async function copyInputText(input: HTMLInputElement): Promise<boolean> {
  input.focus();
  input.select();
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
      return true;
    }
  } catch {
    // fall through to the selection copy
  }
  input.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
