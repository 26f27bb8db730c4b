import { useRef, useState } from 'react';

/** Copies text: the Clipboard API where the page may use it, else a selection and execCommand. */
async function copyText(text: string, fallback: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection copy
  }
  if (!fallback) return false;
  const range = document.createRange();
  range.selectNodeContents(fallback);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  return document.execCommand('copy');
}

/** A code block with a Copy button that says when it worked. */
export function CopyBlock({ label, code }: { label: string; code: string }) {
  const pre = useRef<HTMLPreElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <figure className="copy-block">
      <figcaption>
        <span>{label}</span>
        <span className="copy-state muted" role="status">
          {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select the text to copy it' : ''}
        </span>
        <button
          type="button"
          className="secondary small"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() => {
            void copyText(code, pre.current).then((ok) => {
              setState(ok ? 'copied' : 'failed');
              setTimeout(() => setState('idle'), 2000);
            });
          }}
        >
          Copy
        </button>
      </figcaption>
      <pre ref={pre} tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
