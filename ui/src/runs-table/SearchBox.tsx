import { useEffect, useRef, useState } from 'react';

/**
 * The "Search runs" box: typing updates the search after a pause (Enter at once); a change
 * from outside (a cleared filter, Back) shows in the box.
 */
export function SearchBox({ value, onChange }: { value: string; onChange: (next: string) => void }) {
  const [text, setText] = useState(value);
  const pushed = useRef(value);
  useEffect(() => {
    if (value !== pushed.current) {
      pushed.current = value;
      setText(value);
    }
  }, [value]);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const push = (next: string) => {
    if (next === pushed.current) return;
    pushed.current = next;
    onChangeRef.current(next);
  };
  const pushRef = useRef(push);
  pushRef.current = push;
  useEffect(() => {
    const timer = setTimeout(() => pushRef.current(text), 300);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <label className="search-box">
      <span className="visually-hidden">Search runs</span>
      <input
        type="search"
        placeholder="Search runs by name"
        value={text}
        maxLength={256}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') push(text);
        }}
      />
    </label>
  );
}
