import type { RunFile } from '@server/api/schemas/files';
import { formatTime } from '../format';

/** `1.4 MB`-style size of a number of bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** A run's files: name (download link), log name, type, size, step and time. */
export function FilesTable({ files }: { files: RunFile[] }) {
  return (
    <div className="scroll-x card files-card">
      <table>
        <caption className="visually-hidden">Files of this run</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Log name</th>
            <th scope="col">Type</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col" className="num">
              Step
            </th>
            <th scope="col">Logged</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={`${file.logName}\u0000${file.fileName}\u0000${file.step}\u0000${file.time}`}>
              <td>
                <a href={file.url} download={file.fileName}>
                  {file.fileName}
                </a>
              </td>
              <td className="mono">{file.logName}</td>
              <td>{file.fileType || '—'}</td>
              <td className="num">{formatBytes(file.fileSize)}</td>
              <td className="num">{file.step}</td>
              <td>{formatTime(file.time)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
