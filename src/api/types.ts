export const THREAD_STATUSES = ['OPEN', 'CLOSED', 'ARCHIVED'] as const;
export const FILE_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export const WEBHOOK_EVENTS = ['file.indexed', 'thread.message.created'] as const;

export type ThreadStatus = (typeof THREAD_STATUSES)[number];
export type FileStatus = (typeof FILE_STATUSES)[number];
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Thread {
  id: string;
  title: string;
  status: ThreadStatus | string;
  createdAt: string;
  [extra: string]: unknown;
}

export interface Message {
  id: string;
  role: 'user' | 'assistant' | string;
  content: string;
  createdAt: string;
  /** The files an assistant reply cites (an extension; read it with `citedSources`). */
  sources?: unknown;
  /** A reply stopped before it was finished. */
  incomplete?: boolean;
  /** beta: a reply still being written. */
  inProgress?: boolean;
  [extra: string]: unknown;
}

/** The files a reply cites, as strings, whatever shape the service gave them in. */
export function citedSources(message: Message | undefined): string[] {
  return Array.isArray(message?.sources) ? (message.sources as unknown[]).map(String) : [];
}

export interface ThreadWithMessages extends Thread {
  messages: Message[];
}

export interface Exchange {
  userMessage: Message;
  aiResponse: Message;
}

export interface KbFile {
  id: string;
  originalFilename: string;
  fileSize: number;
  mimeType: string;
  indexingStatus: FileStatus | string;
  createdAt: string;
  [extra: string]: unknown;
}

export interface User {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  [extra: string]: unknown;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  secret?: string;
  isActive: boolean;
  createdAt: string;
  [extra: string]: unknown;
}

export interface ListMeta {
  returned?: number;
  limit?: number;
  [extra: string]: unknown;
}

export interface Page<T> {
  data: T[];
  meta: ListMeta;
}

/** One chunk retrieved for a question (`GET /v1/search`, an extension of kb serve). */
export interface SearchHit {
  rank: number;
  fileId: string;
  filename: string;
  /** The first and last page the chunk is from, in a document with pages; else null. */
  pages: [first: number, last: number] | null;
  score: number;
  /** The chunk holds a passage that answers the question. */
  answers: boolean;
  text: string;
  /** The chunk's passages the answer is made of. */
  passages: { text: string; relevance: number }[];
  /** Its passage most relevant to the question (kb serve; null when none was scored). */
  best?: { text: string; relevance: number } | null;
  [extra: string]: unknown;
}

/** What a service retrieves for a question, ranked; `answered`: the assistant would answer rather than say "not found". */
export interface SearchResult {
  query: string;
  answered: boolean;
  data: SearchHit[];
  /** How many of the workspace's files are still being indexed, not searched yet (kb serve). */
  indexing?: number;
}
