export type ThreadRecordStatus = 'OPEN' | 'CLOSED' | 'ARCHIVED';
export type FileStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  key: string;
  workspaceId: string;
}

export interface ThreadRecord {
  id: string;
  workspaceId: string;
  title: string;
  status: ThreadRecordStatus;
  createdAt: string;
  updatedAt: string;
}

/** The longest a message may be, in characters: what a user sends and what a reply holds. */
export const MAX_CONTENT = 32_000;

export interface MessageRecord {
  id: string;
  threadId: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  /** Names of the files an assistant reply drew on. */
  sources?: string[];
  /** The chunks (ids) an assistant reply drew on: where a follow-up looks first. Not shown. */
  drawnFrom?: string[];
  /** A reply stopped before it was finished (cancelled, cut, interrupted): what was written by then. */
  incomplete?: boolean;
  /** Being written (a generation in progress): stored when it was accepted, completed when the reply ends. */
  pending?: boolean;
}

export interface IndexingError {
  code: string;
  message: string;
}

/** How the text of a scan (a PDF's pages without a text layer, or an image) was recognised. */
export interface OcrReport {
  /** Pages (an image is one) whose text was recognised. */
  pages: number;
  /** Tesseract's confidence in their words, 0 to 100, averaged over those pages. */
  meanConfidence: number;
  /** Pages without a text layer that were not read, and why ("the page limit (100)"). */
  skippedPages?: number;
  skipped?: string;
}

export interface FileRecord {
  id: string;
  workspaceId: string;
  originalFilename: string;
  fileSize: number;
  mimeType: string;
  indexingStatus: FileStatus;
  createdAt: string;
  updatedAt: string;
  indexingStartedAt: string | null;
  indexedAt: string | null;
  chunkCount: number;
  indexingError: IndexingError | null;
  /** A scan or an image: how its text was recognised. */
  ocr?: OcrReport;
  deletedAt?: string;
  /** A file from the --docs folder: where, and as what, so that a restart can tell it unchanged. */
  source?: FileSource;
  /** Uploaded (or seeded), not from the --docs folder: no folder file may take its record. */
  uploaded?: true;
}

export interface FileSource {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  /** The READER_VERSION it was read with (absent: before versions were kept). */
  reader?: number;
}

export interface Chunk {
  id: string;
  fileId: string;
  filename: string;
  text: string;
  /** The pages the text is from, in a document with pages (a PDF). */
  pages?: [first: number, last: number];
  /** The search index's terms of `text`, made by the extraction worker off the event loop; not stored. */
  indexed?: IndexedTerms;
}

/** A text as the search index holds it: its terms, encoded and separated by spaces, and how many. */
export interface IndexedTerms {
  terms: string;
  count: number;
}

export interface UserRecord {
  id: string;
  workspaceId: string;
  name: string;
  email: string;
  createdAt: string;
}

export interface WebhookRecord {
  id: string;
  workspaceId: string;
  url: string;
  events: string[];
  secret: string;
  isActive: boolean;
  createdAt: string;
}

/** Every change to the state is one of these: written to the database in one transaction (state/operations.ts), then applied to the store's maps. */
export type Operation =
  | { op: 'workspace'; workspace: Workspace }
  | { op: 'key'; key: ApiKeyRecord }
  | { op: 'user'; user: UserRecord }
  | { op: 'thread'; thread: ThreadRecord }
  | { op: 'threadStatus'; id: string; status: ThreadRecordStatus; at: string }
  | { op: 'messages'; messages: MessageRecord[] }
  /** A message changed in place: a reply that was being written, completed. */
  | { op: 'messageUpdate'; message: MessageRecord }
  /** The text so far of a reply being written (not fsynced: a crash may lose its last second). */
  | { op: 'messageText'; threadId: string; id: string; content: string }
  /** A reply withdrawn before it was written: a generation cancelled while it waited for its turn. */
  | { op: 'messageDeleted'; threadId: string; id: string }
  | { op: 'file'; file: FileRecord }
  | { op: 'fileIndexed'; file: FileRecord; chunks: Chunk[] }
  /** Part of a large file's chunks, stored while it is PROCESSING; its fileIndexed brings the rest. */
  | { op: 'fileChunks'; fileId: string; chunks: Chunk[] }
  | { op: 'fileDeleted'; id: string; at: string }
  | { op: 'webhook'; webhook: WebhookRecord }
  | { op: 'webhookDeleted'; id: string };
