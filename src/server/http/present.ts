import type { FileRecord, MessageRecord, ThreadRecord, UserRecord, WebhookRecord } from '../state/model.js';

/** The public shapes: internal fields (workspace ids, secrets, deletion marks) never leave. */
export const presentThread = (t: ThreadRecord) => ({
  id: t.id,
  title: t.title,
  status: t.status,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

export const presentMessage = (m: MessageRecord) => ({
  id: m.id,
  role: m.role,
  content: m.content,
  createdAt: m.createdAt,
  ...(m.sources ? { sources: m.sources } : {}),
  ...(m.incomplete || m.pending ? { incomplete: true } : {}),
  ...(m.pending ? { inProgress: true } : {}),
});

export const presentFile = (f: FileRecord) => ({
  id: f.id,
  originalFilename: f.originalFilename,
  fileSize: f.fileSize,
  mimeType: f.mimeType,
  indexingStatus: f.indexingStatus,
  createdAt: f.createdAt,
});

export const presentFileDetail = (f: FileRecord) => ({
  ...presentFile(f),
  updatedAt: f.updatedAt,
  indexingStartedAt: f.indexingStartedAt,
  indexedAt: f.indexedAt,
  chunkCount: f.chunkCount,
  indexingError: f.indexingError,
  ...(f.ocr ? { ocr: f.ocr } : {}),
});

export const presentUser = (u: UserRecord) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  createdAt: u.createdAt,
});

export const presentWebhook = (w: WebhookRecord, withSecret = false) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  ...(withSecret ? { secret: w.secret } : {}),
  isActive: w.isActive,
  createdAt: w.createdAt,
});
