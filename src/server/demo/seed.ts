import { readFileSync } from 'node:fs';
import { now } from '../clock.js';
import { DEMO_DOCUMENTS, DEMO_SCANS, DEMO_THREADS, DEMO_USERS, OTHER_WORKSPACE } from './demo-content.js';
import { newId } from '../state/ids.js';
import { packageFile } from '../../util/built-script.js';
import type { Indexer } from '../ingest/indexer.js';
import type { MessageRecord, ThreadRecordStatus } from '../state/model.js';
import type { Store } from '../state/store.js';

/** Finds or creates the workspace called `name`; returns its id. */
export function ensureWorkspace(store: Store, name: string): string {
  for (const workspace of store.workspaces.values()) if (workspace.name === name) return workspace.id;
  const workspace = { id: newId('ws'), name, createdAt: now() };
  store.commit({ op: 'workspace', workspace });
  return workspace.id;
}

function addUsers(store: Store, workspaceId: string, users: readonly (readonly [string, string])[]) {
  for (const [name, email] of users) {
    store.commit({ op: 'user', user: { id: newId('usr'), workspaceId, name, email, createdAt: now() } });
  }
}

/** The demo workspace (members, documents, threads in every status) and a second workspace. */
export function seedDemo(store: Store, indexer: Indexer, demoId: string, otherId: string): void {
  addUsers(store, demoId, DEMO_USERS);
  // The scans first: lists are newest first, and show the text documents at the top as before.
  for (const name of DEMO_SCANS)
    indexer.upload(demoId, name, readFileSync(packageFile('assets', 'demo', name)));
  for (const [name, text] of Object.entries(DEMO_DOCUMENTS)) indexer.upload(demoId, name, Buffer.from(text));
  for (const seed of DEMO_THREADS) {
    const at = now();
    const thread = {
      id: newId('thr'),
      workspaceId: demoId,
      title: seed.title,
      status: seed.status as ThreadRecordStatus,
      createdAt: at,
      updatedAt: at,
    };
    store.commit({ op: 'thread', thread });
    const messages: MessageRecord[] = seed.messages.map(([role, content]) => ({
      id: newId('msg'),
      threadId: thread.id,
      role,
      content,
      createdAt: now(),
    }));
    if (messages.length) store.commit({ op: 'messages', messages });
  }
  addUsers(store, otherId, OTHER_WORKSPACE.users);
  const at = now();
  store.commit({
    op: 'thread',
    thread: {
      id: newId('thr'),
      workspaceId: otherId,
      title: OTHER_WORKSPACE.thread,
      status: 'OPEN',
      createdAt: at,
      updatedAt: at,
    },
  });
  indexer.upload(otherId, OTHER_WORKSPACE.document[0], Buffer.from(OTHER_WORKSPACE.document[1]));
}
