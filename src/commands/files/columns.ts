import type { KbFile } from '../../api/types.js';
import { colorStatus, humanSize } from '../../io/format.js';
import type { Column } from '../../io/output.js';
import type { IO } from '../../io/streams.js';
import { indexingError } from './get.js';

/**
 * A list's columns. On a terminal, a list of one status leaves out what every row shares (the
 * status) and what none has (ERROR, unless it is FAILED), and a FAILED list gives why the room
 * of the size and the type; piped, the columns stay the same for scripts.
 */
export function fileColumns(io: IO, status?: string): Column<KbFile>[] {
  const all = allColumns(io, status === 'FAILED');
  if (!io.stdoutIsTTY || !status) return all;
  const left = new Set(['STATUS', ...(status === 'FAILED' ? ['SIZE', 'TYPE'] : ['ERROR'])]);
  return all.filter((column) => !left.has(column.header));
}

function allColumns(io: IO, failedOnly: boolean): Column<KbFile>[] {
  return [
    { header: 'ID', value: (f) => f.id, style: (s) => io.color.dim(s) },
    { header: 'NAME', value: (f) => f.originalFilename, flex: true, cut: 'middle' },
    // On a narrow terminal the type goes first, then the time, then the size: the name stays.
    { header: 'SIZE', value: (f) => (io.stdoutIsTTY ? humanSize(f.fileSize) : f.fileSize), optional: 3 },
    { header: 'TYPE', value: (f) => f.mimeType, flex: 'first', optional: 1 },
    { header: 'STATUS', value: (f) => f.indexingStatus, style: (s) => colorStatus(io.color, s) },
    { header: 'CREATED', value: (f) => f.createdAt, time: true, optional: 2 },
    // Why a FAILED file failed: its code (or its message, from a service without codes), a field
    // scripts compare; on a terminal, in a list of FAILED files, with its message (as far as the
    // width allows: beside other files, the code alone leaves their names the room).
    {
      header: 'ERROR',
      value: (f) => {
        const error = indexingError(f);
        if (!error) return '';
        if (io.stdoutIsTTY && failedOnly && error.code) return `${error.code}: ${error.message}`;
        return error.code ?? error.message;
      },
      style: (s) => io.color.red(s),
      flex: true,
    },
  ];
}
