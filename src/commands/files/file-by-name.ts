import type { KbClient } from '../../api/client.js';
import { NotFoundError } from '../../api/errors.js';
import type { KbFile } from '../../api/types.js';
import { UsageError } from '../../errors.js';

/** Ids a "give an id" hint lists before counting the rest. */
const LISTED = 5;

/**
 * The file a person names by its id or, when no file has that id, by its file name
 * (`kb files get manual.pdf`): the list is read, every page, for files of exactly that name. Two
 * or more of one name are refused with their ids, since which one was meant is not known.
 */
export async function fileByIdOrName(client: KbClient, ref: string, signal?: AbortSignal): Promise<KbFile> {
  try {
    return await client.files.get(ref, signal);
  } catch (err) {
    // A route the service lacks is no missing record: said as it is.
    if (!(err instanceof NotFoundError) || err.code === 'route_not_found') throw err;
    const named: string[] = [];
    for await (const page of client.files.pages({ want: Infinity, signal }))
      for (const file of page.data) if (file.originalFilename === ref) named.push(file.id);
    if (named.length === 1) return client.files.get(named[0]!, signal);
    if (named.length === 0) {
      const none = new NotFoundError(`no file has the id or name ${ref}`, err);
      throw err.response ? none.withResponse(err.response) : none;
    }
    const more = named.length > LISTED ? ` and ${named.length - LISTED} more` : '';
    throw new UsageError(
      `${named.length} files are named ${ref}`,
      `give one's id: ${named.slice(0, LISTED).join(', ')}${more}`,
    );
  }
}
