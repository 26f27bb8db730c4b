import { useState } from 'react';
import type { MediaItem, MediaKind } from './media-model';

/**
 * One file of a step: an image thumbnail (a button opening the large view), or an audio or
 * video player, captioned with its logged caption (if any), the sample index and file name. The server keeps no smaller
 * renditions (no thumbnails), so images load lazily inside fixed-aspect boxes: a thumbnail
 * off screen downloads nothing, and the layout does not jump as images arrive.
 */
export function MediaItemView({
  item,
  kind,
  logName,
  onOpen,
}: {
  item: MediaItem;
  kind: MediaKind;
  logName: string;
  onOpen?: (item: MediaItem, trigger: HTMLButtonElement) => void;
}) {
  const { file, sample } = item;
  // An expired link, a blocked origin or bytes that are not an image: say so in the box.
  const [failed, setFailed] = useState<string | null>(null);
  const caption = file.caption || null;
  const label = `${logName}, step ${file.step}, sample ${sample}${caption ? `: ${caption}` : ''}`;
  return (
    <figure className={`media-item media-${kind.toLowerCase()}`}>
      {failed === file.url ? (
        <div className="media-failed" role="note">
          <span>Could not load this file.</span>
          <a href={file.url} download={file.fileName}>
            Download
          </a>
        </div>
      ) : kind === 'IMAGE' ? (
        <button
          type="button"
          className="media-thumb"
          aria-label={`Enlarge ${label}`}
          onClick={(e) => onOpen?.(item, e.currentTarget)}
        >
          <img
            src={file.url}
            alt={label}
            loading="lazy"
            decoding="async"
            width={160}
            height={160}
            onError={() => setFailed(file.url)}
          />
        </button>
      ) : kind === 'AUDIO' ? (
        <audio controls preload="metadata" src={file.url} aria-label={label} onError={() => setFailed(file.url)}>
          <a href={file.url}>Download {file.fileName}</a>
        </audio>
      ) : (
        <video
          controls
          preload="metadata"
          src={file.url}
          aria-label={label}
          className="media-video"
          onError={() => setFailed(file.url)}
        >
          <a href={file.url}>Download {file.fileName}</a>
        </video>
      )}
      <figcaption>
        {caption && (
          <span className="media-caption" title={caption}>
            {caption}
          </span>
        )}
        <span className="media-sample">#{sample}</span>{' '}
        <span className="mono media-file" title={file.fileName}>
          {file.fileName}
        </span>
      </figcaption>
    </figure>
  );
}
