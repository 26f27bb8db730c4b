/**
 * Shortens `text` to at most `max` characters (code points) by cutting its middle, keeping
 * two fifths of its start and the rest of its end (where sweep names keep their lr and
 * seed): `resnet18-a…p-lr0.001-seed3`. Text that fits, or a `max` below 3, is left as is.
 */
export function middleEllipsis(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max || max < 3) return text;
  const keep = max - 1;
  const head = Math.floor((keep * 2) / 5);
  const tail = keep - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}
