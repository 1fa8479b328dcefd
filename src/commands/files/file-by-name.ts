import type { KbClient } from '../../api/client.js';
import { NotFoundError } from '../../api/errors.js';
import type { KbFile } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import type { IO } from '../../io/streams.js';
import { idsFromArgs } from '../../io/stdin.js';

/** Ids a "give an id" hint lists before counting the rest. */
const LISTED = 5;

/**
 * The file a person names by its id or, when no file has that id, by its file name
 * (`kb files get manual.pdf`): the list is read, every page, for files of exactly that name, or,
 * when none has it and it names no folder, of that name in their folder (a docs folder's
 * `man/find.pdf` for `find.pdf`). Two or more are refused with their ids, since which one was
 * meant is not known.
 */
export async function fileByIdOrName(client: KbClient, ref: string, signal?: AbortSignal): Promise<KbFile> {
  try {
    return await client.files.get(ref, signal);
  } catch (err) {
    // A route the service lacks is no missing record: said as it is.
    if (!(err instanceof NotFoundError) || err.code === 'route_not_found') throw err;
    return fileNamed(client, ref, err, signal);
  }
}

/** The one file named `ref` (see fileByIdOrName), when no file has it as its id (`err`). */
async function fileNamed(
  client: KbClient,
  ref: string,
  err: NotFoundError,
  signal?: AbortSignal,
): Promise<KbFile> {
  const named: KbFile[] = [];
  const inFolders: KbFile[] = [];
  for await (const page of client.files.pages({ want: Infinity, signal }))
    for (const file of page.data) {
      const name = String(file.originalFilename ?? '');
      if (name === ref) named.push(file);
      else if (!ref.includes('/') && name.endsWith(`/${ref}`)) inFolders.push(file);
    }
  const found = named.length ? named : inFolders;
  if (found.length === 1) return client.files.get(found[0]!.id, signal);
  if (found.length === 0) {
    const none = new NotFoundError(`no file has the id or name ${ref}`, err);
    throw err.response ? none.withResponse(err.response) : none;
  }
  const more = found.length > LISTED ? ` and ${found.length - LISTED} more` : '';
  if (!named.length)
    throw new UsageError(
      `${found.length} files are named ${ref} in their folders`,
      `give one’s id or whole name: ${found
        .slice(0, LISTED)
        .map((f) => `${f.id} (${String(f.originalFilename)})`)
        .join(', ')}${more}`,
    );
  throw new UsageError(
    `${found.length} files are named ${ref}`,
    `give one's id: ${found
      .slice(0, LISTED)
      .map((f) => f.id)
      .join(', ')}${more}`,
  );
}

/**
 * The ids of the files given: each word an id or a file's name (see fileByIdOrName), `-` ids read
 * from stdin as they are (a script's). A word that names no file is kept, for the caller to
 * report as it reports an id not found; one that names several is refused.
 */
export async function fileIdsFromArgs(
  client: KbClient,
  io: IO,
  args: string[],
  signal?: AbortSignal,
): Promise<string[]> {
  const ids: string[] = [];
  for (const arg of args) {
    if (arg === '-') {
      ids.push(...(await idsFromArgs(io, [arg])));
      continue;
    }
    try {
      await client.files.get(arg, signal);
      ids.push(arg);
    } catch (err) {
      if (!(err instanceof NotFoundError) || err.code === 'route_not_found') throw err;
      // Not an id: a name, or else kept as given, to be reported as an id not found is. A name two
      // files have is refused as `files get` refuses it: which one was meant is not known.
      ids.push(
        await fileNamed(client, arg, err, signal).then(
          (f) => f.id,
          (named: unknown) => {
            if (named instanceof NotFoundError) return arg;
            throw named;
          },
        ),
      );
    }
  }
  return ids;
}
