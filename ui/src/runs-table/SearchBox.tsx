import { useEffect, useRef, useState } from 'react';

/**
 * A search box ("Search runs" unless labelled otherwise): typing updates the search after a
 * pause (Enter at once); a change from outside (a cleared filter, Back) shows in the box.
 */
export function SearchBox({
  value,
  onChange,
  label = 'Search runs',
  placeholder = 'Search runs by name',
  delayMs = 300,
}: {
  value: string;
  onChange: (next: string) => void;
  label?: string;
  placeholder?: string;
  delayMs?: number;
}) {
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
    const timer = setTimeout(() => pushRef.current(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return (
    <label className="search-box">
      <span className="visually-hidden">{label}</span>
      <input
        type="search"
        placeholder={placeholder}
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
