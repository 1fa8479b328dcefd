import type { AddressInfo } from 'node:net';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './http/app.js';
import { Foreground } from './foreground.js';
import type { GeneratorOptions } from './answer/generator.js';
import type { Service } from './context.js';
import { DEFAULT_RETRY_SCHEDULE, Deliverer } from './webhooks/deliveries.js';
import { FaultPlan, parseFaultRule } from './http/faults.js';
import { newSecret } from './state/ids.js';
import { DocsFolder } from './ingest/docs-folder.js';
import { Extractor } from './ingest/extraction/extractor.js';
import {
  DEFAULT_OCR_PAGES,
  OCR_BUDGET_MS,
  type OcrLanguage,
  resolveOcrLanguages,
} from './ingest/extraction/ocr-languages.js';
import { DEFAULT_MAX_FILE_BYTES, Indexer, type IndexingProgress } from './ingest/indexer.js';
import { Embeddings, type EmbeddingsServiceOptions } from './search/embeddings/embeddings.js';
import { companionsOf, openDatabase } from './state/database.js';
import { hashKey } from './state/api-keys.js';
import { Turns } from './conversation/turns.js';
import { resumeUploads, UploadBudget, UPLOADS_IN_FLIGHT } from './ingest/uploads.js';
import { checkUploadsDir, UploadStore, uploadsDirFor } from './ingest/upload-store.js';
import { sweepDataTemps } from './ingest/leftovers.js';
import { Sessions } from './web-console/sessions.js';
import { Generations } from './conversation/generations.js';
import { type Resolver, systemResolver } from './webhooks/target.js';
import { webhookLookups } from './webhooks/lookups.js';
import { ensureWorkspace, seedDemo } from './demo/seed.js';
import { Store } from './state/store.js';
import { importLegacyJournal, type LegacyImportReport } from './state/legacy-import.js';
import { type DatabaseRepair, repairIfDamaged } from './state/database-repair.js';
import { writeOperations } from './state/operations.js';
import { SearchIndex } from './search/fts-index.js';
import { ChunkVectors } from './search/chunk-vectors.js';

export { LOW_MEMORY_V8_FLAGS, SERVE_V8_FLAGS } from './v8-flags.js';

export interface ServerOptions {
  port?: number;
  host?: string;
  /** Seed the demo workspace and a second one. */
  demo?: boolean;
  /** A folder whose files are ingested into the first workspace, now and when added later. */
  docsDir?: string;
  /** `workspace:key` pairs; the workspace is created when missing. */
  apiKeys?: string[];
  /** The database file that holds the state (created when missing); without it, an in-memory one. */
  dataFile?: string;
  /** Start from a damaged --data file: keep every valid record, move the original aside. */
  repairData?: boolean;
  replyDelayMs?: number;
  /** Pause between the pieces of a streamed reply, in ms (--stream-delay). */
  streamDelayMs?: number;
  /** Fault rules such as "GET /v1/threads 503 x2". */
  faults?: string[];
  log?: (entry: Record<string, unknown>) => void;
  allowLocalWebhooks?: boolean;
  generator?: GeneratorOptions;
  /** How much of a question a passage must hold to answer it (the bench sweeps it; default measured). */
  relevanceThreshold?: number;
  rateLimit?: number;
  /** Pause before each indexing step, in ms (default 200). */
  indexDelayMs?: number;
  webhookRetrySchedule?: number[];
  webhookTimeoutMs?: number;
  /** How webhook host names are resolved (tests pass a fixed table); default: the system's. */
  resolve?: Resolver;
  /** How long a webhook host name may take to resolve (default LOOKUP_TIMEOUT_MS). */
  webhookLookupTimeoutMs?: number;
  /** Indexing progress: after each batch, and when no file waits any more. */
  onIndexing?: (progress: IndexingProgress) => void;
  /** Larger documents FAIL as too_large (default 100 MiB). */
  maxFileBytes?: number;
  /** An upload's body from which no byte comes for this long is ended (default 30 s). */
  uploadIdleMs?: number;
  /** How long reading one document's text may take (default 60 s). */
  extractTimeoutMs?: number;
  /**
   * Scanned PDF pages and images are read by OCR (default: in English, at most 100 pages a
   * document); `false` turns it off (--no-ocr).
   */
  ocr?: { languages?: OcrLanguage[]; maxPages?: number } | false;
  /** Something that is not a request's went wrong inside (a defect): said on the console, never fatal. */
  onInternalError?: (err: unknown) => void;
  /**
   * An OpenAI-compatible embeddings endpoint: chunks are embedded as they are indexed, and
   * retrieval fuses BM25 with the nearest vectors. `minSimilarity` (default 0.5) is the cosine
   * at which a passage answers by meaning alone; a question's calls have a short deadline, and
   * a failure keeps the endpoint from being asked for a cool-down (see Embeddings).
   */
  embeddings?: EmbeddingsServiceOptions;
  /** A line for the console: a generator or embeddings endpoint that failed, and what was done instead. */
  onNotice?: (message: string) => void;
}

export interface WorkspaceInfo {
  id: string;
  name: string;
  /**
   * Its keys known in clear in this run (made now, or given with apiKeys): the database keeps
   * only their hashes, so a key made by an earlier run is not here.
   */
  keys: string[];
}

export interface RunningServer {
  url: string;
  port: number;
  /** The first key known in clear (see WorkspaceInfo.keys) of each workspace, by workspace name. */
  keys: Record<string, string>;
  workspaces: WorkspaceInfo[];
  service: Service;
  /** What loading the state found: replies that were being written when it stopped. */
  /**
   * What starting found: replies that were being written when it stopped, a journal of an older
   * kb imported, what --repair kept of a damaged database.
   */
  loaded: { interrupted: number; imported?: LegacyImportReport; databaseRepair?: DatabaseRepair };
  close(): Promise<void>;
}

/** Starts the local service; `port: 0` picks a free port. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  let imported: LegacyImportReport | undefined;
  let databaseRepair: DatabaseRepair | undefined;
  if (options.dataFile) {
    sweepDataTemps(options.dataFile);
    checkUploadsDir(uploadsDirFor(options.dataFile));
    // A journal written by a kb before the database: imported once, the old files kept as *.bak.
    // Its chunks are indexed for search when the database is first opened below.
    imported = importLegacyJournal(options.dataFile, (ops, db) => writeOperations(db, ops), {
      repair: options.repairData,
    });
    if (options.repairData) databaseRepair = repairIfDamaged(options.dataFile);
  }
  const db = openDatabase(options.dataFile);
  const embeddings = options.embeddings && new Embeddings(options.embeddings, (m) => options.onNotice?.(m));
  // The search index (and the vectors) follow the chunks in and out, inside the store's transactions.
  const search = new SearchIndex(db, {
    vectors: options.embeddings && new ChunkVectors(db, options.embeddings.model),
  });
  const stateFile = options.dataFile ?? 'memory';
  const store = new Store(db, {
    search,
    // Requests answer 503 and the indexer waits in silence: the console says why, once.
    onStorage: (failure) =>
      options.onNotice?.(
        failure
          ? `cannot store changes in ${stateFile} (${(failure.cause as { code?: string })?.code ?? failure.message}): changes answer 503 and indexing waits until it can`
          : `kb serve stores changes in ${stateFile} again`,
      ),
  });

  let closed = false;
  let resolveClosing!: () => void;
  const closing = new Promise<void>((resolve) => {
    resolveClosing = resolve;
  });
  const faults = new FaultPlan();
  faults.add((options.faults ?? []).map(parseFaultRule));
  const lookups = webhookLookups(options.resolve ?? systemResolver, options.webhookLookupTimeoutMs);
  const deliverer = new Deliverer(db, {
    retrySchedule: options.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    allowLoopback: options.allowLocalWebhooks ?? false,
    resolve: lookups.delivery,
    log: options.log ? (entry) => options.log?.({ webhookDelivery: entry }) : undefined,
  });
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const uploads = new UploadStore(options.dataFile && uploadsDirFor(options.dataFile));
  uploads.sweep();
  const extractor = new Extractor({
    timeoutMs: options.extractTimeoutMs,
    maxFileBytes,
    ocr:
      options.ocr === false
        ? undefined
        : {
            languages: options.ocr?.languages ?? resolveOcrLanguages('eng'),
            maxPages: options.ocr?.maxPages ?? DEFAULT_OCR_PAGES,
            // Each page has the document's time limit (the worker says when it starts one); all of
            // a scan's pages together have this.
            budgetMs: OCR_BUDGET_MS,
          },
  });
  const foreground = new Foreground();
  const indexer = new Indexer(store, {
    stepDelayMs: options.indexDelayMs ?? 200,
    extract: (filename, bytes, workspaceId, onPage) =>
      extractor.extract(filename, bytes, workspaceId, onPage),
    embed: embeddings && ((chunks) => embeddings.chunks(chunks)),
    vectors: search.vectors,
    maxFileBytes,
    onError: options.onInternalError,
    onProgress: options.onIndexing,
    busy: () => foreground.busy,
    onIndexed: (file) => {
      if (file.uploaded) uploads.indexed(file.id);
      deliverer.emit(file.workspaceId, 'file.indexed', {
        fileId: file.id,
        originalFilename: file.originalFilename,
        indexingStatus: file.indexingStatus,
        chunkCount: file.chunkCount,
        indexingError: file.indexingError,
      });
    },
  });
  const service: Service = {
    foreground,
    store,
    search,
    vectors: search.vectors,
    indexer,
    uploads,
    uploadBudget: new UploadBudget(UPLOADS_IN_FLIGHT * maxFileBytes),
    maxFileBytes,
    uploadIdleMs: options.uploadIdleMs ?? 30_000,
    sessions: new Sessions(),
    deliverer,
    faults,
    turns: new Turns(),
    generations: new Generations(),
    embeddings,
    closing,
    options: {
      replyDelayMs: options.replyDelayMs ?? 0,
      streamDelayMs: options.streamDelayMs ?? 0,
      allowLocalWebhooks: options.allowLocalWebhooks ?? false,
      resolve: lookups.registration,
      rateLimit: options.rateLimit ?? 0,
      generator: options.generator,
      relevanceThreshold: options.relevanceThreshold,
      stateFile: options.dataFile,
      log: options.log,
      notice: options.onNotice,
    },
  };

  const fresh = store.workspaces.size === 0;
  // The keys this run knows in clear, by workspace id: the database keeps only their hashes.
  const clearKeys = new Map<string, string[]>();
  const know = (workspaceId: string, key: string) =>
    clearKeys.set(workspaceId, [...(clearKeys.get(workspaceId) ?? []), key]);
  for (const pair of options.apiKeys ?? []) {
    const colon = pair.indexOf(':');
    if (colon <= 0 || colon === pair.length - 1)
      throw new Error(`invalid API key pair "${pair.split(':')[0]}:…": expected workspace:key`);
    const workspaceId = ensureWorkspace(store, pair.slice(0, colon));
    const key = pair.slice(colon + 1);
    if (store.keys.get(hashKey(key)) !== workspaceId) store.commit({ op: 'key', key: { key, workspaceId } });
    know(workspaceId, key);
  }
  if (fresh && options.demo) {
    const demoId = ensureWorkspace(store, 'demo');
    const otherId = ensureWorkspace(store, 'acme');
    seedDemo(store, indexer, demoId, otherId);
  }
  if (store.workspaces.size === 0) ensureWorkspace(store, 'default');
  for (const workspace of store.workspaces.values()) {
    if (![...store.keys.values()].includes(workspace.id)) {
      const key = newSecret('kb');
      store.commit({ op: 'key', key: { key, workspaceId: workspace.id } });
      know(workspace.id, key);
    }
  }
  const firstWorkspace = [...store.workspaces.values()][0]!;
  let folder: DocsFolder | undefined;
  if (options.docsDir) {
    const own = options.dataFile && realPathOf(options.dataFile);
    folder = new DocsFolder(store, indexer, firstWorkspace.id, options.docsDir, {
      // The database, its -wal and -shm, their temporary and damaged copies.
      isOwn: (path) =>
        !!own && (path === own || companionsOf(own).includes(path) || path.startsWith(`${own}.`)),
      maxFileBytes,
      isUpload: (fileId) => uploads.keeps && uploads.has(fileId),
    });
  }
  // The folder's files are compared with their records, and uploads a stop cut short are indexed
  // again from the bytes kept beside --data.
  folder?.start();
  resumeUploads(service);
  const vectors = search.vectors;
  if (embeddings && vectors) {
    // Files indexed without vectors (stored before, or while the endpoint failed) get them now.
    let backfilling = false;
    const backfill = async () => {
      if (backfilling) return;
      backfilling = true;
      try {
        for (const { workspaceId, fileId } of vectors.unembedded()) {
          if (closed) return;
          const { rowids, chunks } = search.fileChunks(fileId);
          const made = await embeddings.chunks(chunks);
          if (!made) return;
          // Unless the file was indexed again (or deleted) meanwhile.
          const now = search.fileChunks(fileId).rowids;
          if (!closed && now.join() === rowids.join()) vectors.add(workspaceId, fileId, rowids, made);
        }
      } finally {
        backfilling = false;
      }
    };
    embeddings.onRecovered = () => void backfill();
    void backfill();
  }

  const app = createApp(service);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      { fetch: app.fetch, port: options.port ?? 4010, hostname: options.host ?? '127.0.0.1' },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const workspaces: WorkspaceInfo[] = [...store.workspaces.values()].map((w) => ({
    id: w.id,
    name: w.name,
    keys: clearKeys.get(w.id) ?? [],
  }));
  return {
    url,
    port: address.port,
    keys: Object.fromEntries(workspaces.filter((w) => w.keys.length).map((w) => [w.name, w.keys[0]!])),
    workspaces,
    service,
    loaded: { interrupted: store.interrupted, imported, databaseRepair },
    async close() {
      if (closed) return;
      closed = true;
      resolveClosing();
      folder?.close();
      indexer.close();
      extractor.close();
      deliverer.close();
      search.close();
      service.sessions.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      store.close();
      uploads.close();
    },
  };
}

/** `path` with the links on the way to it resolved (the file itself may not exist yet). */
function realPathOf(path: string): string {
  const absolute = resolvePath(path);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}
