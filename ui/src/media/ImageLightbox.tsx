import { useId } from 'react';
import { useShowModal } from '../components/useShowModal';
import type { MediaItem } from './media-model';
import { formatBytes } from '../run/FilesTable';

/**
 * One image at full size in a modal dialog (Escape or Close ends it; the caller puts focus
 * back on the thumbnail that opened it).
 */
export function ImageLightbox({ item, title, onClose }: { item: MediaItem; title: string; onClose: () => void }) {
  const dialog = useShowModal();
  const id = useId();
  const { file, sample } = item;
  return (
    <dialog
      ref={dialog}
      className="media-lightbox"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === e.currentTarget) dialog.current?.close();
      }}
    >
      <div className="media-lightbox-head">
        <h2 id={`${id}-title`}>
          {title}{' '}
          <span className="muted">
            · step {file.step} · sample {sample}
          </span>
        </h2>
        <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
          Close
        </button>
      </div>
      <img className="media-lightbox-img" src={file.url} alt={`${title}, step ${file.step}, sample ${sample}`} />
      {file.caption && <p className="media-lightbox-caption">{file.caption}</p>}
      <p className="muted media-lightbox-foot">
        <span className="mono">{file.fileName}</span> · {formatBytes(file.fileSize)} ·{' '}
        <a href={file.url} download={file.fileName}>
          Download
        </a>
      </p>
    </dialog>
  );
}
