import type { KbFile } from '../../api/types.js';
import { colorStatus, humanSize } from '../../io/format.js';
import type { Column } from '../../io/output.js';
import type { IO } from '../../io/streams.js';
import { indexingError } from './get.js';

export function fileColumns(io: IO): Column<KbFile>[] {
  return [
    { header: 'ID', value: (f) => f.id, style: (s) => io.color.dim(s) },
    { header: 'NAME', value: (f) => f.originalFilename, flex: true },
    { header: 'SIZE', value: (f) => (io.stdoutIsTTY ? humanSize(f.fileSize) : f.fileSize) },
    { header: 'TYPE', value: (f) => f.mimeType, flex: 'first' },
    { header: 'STATUS', value: (f) => f.indexingStatus, style: (s) => colorStatus(io.color, s) },
    { header: 'CREATED', value: (f) => f.createdAt, time: true },
    // Why a FAILED file failed: its code (or its message, from a service without codes).
    {
      header: 'ERROR',
      value: (f) => {
        const error = indexingError(f);
        return error?.code ?? error?.message ?? '';
      },
      style: (s) => io.color.red(s),
      flex: true,
    },
  ];
}
