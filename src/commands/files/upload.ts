import { Command } from 'commander';
import { UsageError } from '../../errors.js';

export const UPLOAD_NOTE =
  'Uploads go through the web interface: the API has no upload endpoint (it would need pre-signed\nstorage URLs). Once uploaded, files show up here; `kb files wait ID` follows their indexing.';

export default function uploadCommand(): Command {
  return new Command('upload')
    .description('(not available: uploads go through the web interface)')
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      'after',
      `\n${UPLOAD_NOTE}\n\nWith kb serve, drop files into the folder given to --docs instead:\n  $ kb serve --docs ./handbook`,
    )
    .action(() => {
      throw new UsageError(
        'uploading is not available through the API; upload files in the web interface',
        'with `kb serve`, put files in the folder given to --docs; then `kb files wait ID`',
      );
    });
}
