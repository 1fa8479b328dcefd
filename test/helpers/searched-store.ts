import { SearchIndex } from '../../src/server/search/fts-index.js';
import { type Database, openDatabase } from '../../src/server/state/database.js';
import type { Chunk } from '../../src/server/state/model.js';
import { Store } from '../../src/server/state/store.js';

/** A Store with the search index kb serve gives it, and two ways to look into that index. */
export function searchedStore(db: Database = openDatabase()) {
  const search = new SearchIndex(db);
  const store = new Store(db, { search });
  return Object.assign(store, {
    /** A workspace's search. */
    index: (workspaceId: string) => search.workspace(workspaceId),
    /** A searchable chunk by its file and number. */
    chunk: (fileId: string, n: number): Chunk | undefined => {
      const workspaceId = store.storedFile(fileId)?.workspaceId;
      return workspaceId === undefined ? undefined : search.chunk(workspaceId, `${fileId}:${n}`);
    },
  });
}
