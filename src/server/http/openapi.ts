import { FILE_STATUSES, THREAD_STATUSES, WEBHOOK_EVENTS } from '../../api/types.js';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_QUERY,
  MAX_TITLE,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
} from './validate.js';
import { MAX_CONTENT } from '../state/model.js';

/**
 * The interface as kb serve implements it, as an OpenAPI 3.1 document: served at
 * GET /openapi.json and shipped as docs/openapi.json (`npm run openapi`; a test keeps the two
 * equal and checks kb serve's answers against it). Extensions beyond the published interface
 * are tagged `extension`, the streaming interface `beta`.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const data = (schema: unknown) => ({ type: 'object', required: ['data'], properties: { data: schema } });
const ok = (description: string, schema: unknown) => ({ description, content: json(schema) });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/E${s}` }]));
const COMMON = errors(401, 429, 503);
const idParam = (name: string, what: string) => ({
  name,
  in: 'path',
  required: true,
  description: `the ${what}'s id`,
  schema: { type: 'string' },
});
const LIST_PARAMS = [
  {
    name: 'limit',
    in: 'query',
    description: `records per page (default ${DEFAULT_LIMIT}; above ${MAX_LIMIT} counts as ${MAX_LIMIT})`,
    schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
  },
  {
    name: 'cursor',
    in: 'query',
    description: 'the previous page’s meta.nextCursor, as given: the page after it',
    schema: { type: 'string' },
  },
];
const list = (item: string) => ({
  type: 'object',
  required: ['data', 'meta'],
  properties: { data: { type: 'array', items: ref(item) }, meta: ref('PageMeta') },
});
const body = (schema: unknown) => ({ required: true, content: json(schema) });
/** A message sent to a thread, and how sending one can fail: the same for both ways of sending. */
const MESSAGE_BODY = body({
  type: 'object',
  required: ['content'],
  properties: { content: { type: 'string', minLength: 1, maxLength: MAX_CONTENT } },
});
const MESSAGE_ERRORS = { ...errors(400, 404, 409, 413, 415, 422), ...COMMON };
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const timestamp = { type: 'string', format: 'date-time' };

export function openApiDocument(version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Conversational AI and Knowledge Base Service (kb serve)',
      version,
      description:
        'The service interface as the local implementation (`kb serve`) answers it. Every operation but this document needs `Authorization: Bearer <API key>` and acts within the key’s workspace. Lists page with an opaque cursor. Decisions where the published interface is silent: docs/local-service.md.',
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'kb serve (--port sets the port)' }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'threads' },
      { name: 'files' },
      { name: 'users' },
      { name: 'webhooks' },
      { name: 'extension', description: 'beyond the published interface' },
      { name: 'beta', description: 'the streaming interface' },
    ],
    paths: {
      '/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          security: [],
          tags: ['extension'],
          responses: { 200: ok('the OpenAPI document', { type: 'object', required: ['openapi', 'paths'] }) },
        },
      },
      '/v1/threads': {
        get: {
          operationId: 'listThreads',
          tags: ['threads'],
          summary: 'Threads, newest first',
          parameters: [
            { name: 'status', in: 'query', schema: { type: 'string', enum: [...THREAD_STATUSES] } },
            ...LIST_PARAMS,
          ],
          responses: { 200: ok('a page of threads', list('Thread')), ...errors(400), ...COMMON },
        },
        post: {
          operationId: 'createThread',
          tags: ['threads'],
          summary: 'Start a thread',
          requestBody: {
            required: false,
            content: json({
              type: 'object',
              properties: { title: { type: 'string', maxLength: MAX_TITLE } },
            }),
          },
          responses: { 201: ok('the thread', data(ref('Thread'))), ...errors(400, 413, 415, 422), ...COMMON },
        },
      },
      '/v1/threads/{id}': {
        parameters: [idParam('id', 'thread')],
        get: {
          operationId: 'getThread',
          tags: ['threads'],
          summary: 'A thread with its messages, oldest first',
          responses: { 200: ok('the thread', data(ref('ThreadWithMessages'))), ...errors(404), ...COMMON },
        },
        patch: {
          operationId: 'updateThread',
          tags: ['threads', 'extension'],
          summary: 'Change a thread’s title or status',
          requestBody: body({
            type: 'object',
            properties: {
              title: { type: 'string', maxLength: MAX_TITLE },
              status: { type: 'string', enum: [...THREAD_STATUSES] },
            },
          }),
          responses: {
            200: ok('the thread', data(ref('Thread'))),
            ...errors(400, 404, 413, 415, 422),
            ...COMMON,
          },
        },
      },
      '/v1/threads/{id}/messages': {
        parameters: [idParam('id', 'thread')],
        post: {
          operationId: 'sendMessage',
          tags: ['threads'],
          summary: 'Send a message; the answer is the assistant’s reply, grounded in the workspace’s files',
          requestBody: MESSAGE_BODY,
          responses: {
            201: ok('both messages', data(ref('Exchange'))),
            ...MESSAGE_ERRORS,
          },
        },
      },
      '/v1/threads/{id}/generations': {
        parameters: [idParam('id', 'thread')],
        post: {
          operationId: 'startGeneration',
          tags: ['beta'],
          summary: 'Send a message and have the reply written as a stream of events',
          requestBody: MESSAGE_BODY,
          responses: {
            202: ok('the generation, started', data(ref('Generation'))),
            ...MESSAGE_ERRORS,
          },
        },
      },
      '/v1/generations/{id}': {
        parameters: [idParam('id', 'generation')],
        get: {
          operationId: 'getGeneration',
          tags: ['beta'],
          summary: 'A generation as it stands (poll it instead of streaming)',
          responses: { 200: ok('the generation', data(ref('Generation'))), ...errors(404), ...COMMON },
        },
      },
      '/v1/generations/{id}/cancel': {
        parameters: [idParam('id', 'generation')],
        post: {
          operationId: 'cancelGeneration',
          tags: ['beta'],
          summary: 'Stop a generation: what was written is kept, marked incomplete',
          requestBody: {
            required: false,
            description:
              'none is needed; one sent is read as every request body is (a JSON object), then ignored',
            content: json({ type: 'object' }),
          },
          responses: {
            200: ok('the generation', data(ref('Generation'))),
            ...errors(400, 404, 413, 415),
            ...COMMON,
          },
        },
      },
      '/v1/generations/{id}/events': {
        parameters: [
          idParam('id', 'generation'),
          {
            name: 'Last-Event-ID',
            in: 'header',
            description: 'resume after this event',
            schema: { type: 'string', pattern: '^\\d+$' },
          },
          {
            name: 'after',
            in: 'query',
            description: 'as Last-Event-ID',
            schema: { type: 'string', pattern: '^\\d+$' },
          },
        ],
        get: {
          operationId: 'streamGeneration',
          tags: ['beta'],
          summary:
            'The generation’s events as server-sent events: started, delta…, then completed, cancelled or failed',
          responses: {
            200: {
              description:
                'an event stream: `id: <n>`, `event: <type>`, `data: <JSON>` per event; it ends after the last',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...errors(400, 404),
            ...COMMON,
          },
        },
      },
      '/v1/files': {
        get: {
          operationId: 'listFiles',
          tags: ['files'],
          summary: 'The workspace’s documents, newest first',
          parameters: [
            { name: 'status', in: 'query', schema: { type: 'string', enum: [...FILE_STATUSES] } },
            ...LIST_PARAMS,
          ],
          responses: { 200: ok('a page of files', list('File')), ...errors(400), ...COMMON },
        },
        post: {
          operationId: 'uploadFile',
          tags: ['files', 'extension'],
          summary:
            'Upload a file to be indexed: the raw bytes as the body (the published interface takes uploads in its web app only)',
          parameters: [
            {
              name: 'filename',
              in: 'query',
              required: true,
              description:
                'the file’s name: its extension decides how it is read (a name of no known type is read as text when its bytes are; a .gz as what it unpacks to)',
              schema: { type: 'string', minLength: 1, maxLength: 255 },
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          responses: {
            201: ok('the file, PENDING: indexing follows', data(ref('FileDetail'))),
            ...errors(400, 413, 422),
            ...COMMON,
            503: {
              description:
                'nothing was kept; try again after Retry-After: the bytes could not be stored (storage_unavailable: a full disk), or uploads of four times --max-file-size (twice for one workspace) are being received already (uploads_busy)',
              headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
              content: json(ref('Error')),
            },
          },
        },
      },
      '/v1/files/{id}': {
        parameters: [idParam('id', 'file')],
        get: {
          operationId: 'getFile',
          tags: ['files'],
          summary: 'A file with its indexing details',
          responses: { 200: ok('the file', data(ref('FileDetail'))), ...errors(404), ...COMMON },
        },
        delete: {
          operationId: 'deleteFile',
          tags: ['files'],
          summary: 'Delete a file: gone from lists and from the assistant’s context at once',
          responses: { 204: { description: 'deleted' }, ...errors(404), ...COMMON },
        },
      },
      '/v1/search': {
        get: {
          operationId: 'search',
          tags: ['extension'],
          summary:
            'The passages retrieved for a question, ranked: each chunk with its file, pages, score and whether it answers',
          description:
            'What the assistant draws on for a message: the chunks that hold an answering passage first (those the answer is made of by the rank of their best passage), then the others by score. Not part of the published interface.',
          parameters: [
            {
              name: 'q',
              in: 'query',
              required: true,
              description: 'the question, as a message would ask it',
              schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY },
            },
            {
              name: 'limit',
              in: 'query',
              description: `chunks to list (default ${SEARCH_DEFAULT_LIMIT}; above ${SEARCH_MAX_LIMIT} counts as ${SEARCH_MAX_LIMIT})`,
              schema: { type: 'integer', minimum: 1, default: SEARCH_DEFAULT_LIMIT },
            },
            {
              name: 'threadId',
              in: 'query',
              description:
                'read the question as a follow-up in this thread, as a message sent to it would be',
              schema: { type: 'string' },
            },
          ],
          responses: {
            200: ok('the chunks retrieved, ranked', ref('SearchResult')),
            ...errors(400, 404),
            ...COMMON,
          },
        },
      },
      '/v1/users': {
        get: {
          operationId: 'listUsers',
          tags: ['users'],
          summary: 'Workspace members by name',
          parameters: [
            {
              name: 'q',
              in: 'query',
              description: 'part of a name or e-mail, any case and accents',
              schema: { type: 'string', maxLength: 200 },
            },
            ...LIST_PARAMS,
          ],
          responses: { 200: ok('a page of members', list('User')), ...errors(400, 422), ...COMMON },
        },
      },
      '/v1/webhooks': {
        post: {
          operationId: 'createWebhook',
          tags: ['webhooks'],
          summary: 'Register a webhook; its secret is in this answer only',
          requestBody: body({
            type: 'object',
            required: ['url', 'events'],
            properties: {
              url: { type: 'string', description: 'https (http on loopback with --allow-local-webhooks)' },
              events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
            },
          }),
          responses: {
            201: ok('the webhook with its secret', data(ref('WebhookWithSecret'))),
            ...errors(400, 413, 415, 422),
            ...COMMON,
          },
        },
        get: {
          operationId: 'listWebhooks',
          tags: ['webhooks', 'extension'],
          summary: 'Registered webhooks, newest first (no secrets)',
          parameters: LIST_PARAMS,
          responses: { 200: ok('a page of webhooks', list('Webhook')), ...errors(400), ...COMMON },
        },
      },
      '/v1/webhooks/{id}': {
        parameters: [idParam('id', 'webhook')],
        get: {
          operationId: 'getWebhook',
          tags: ['webhooks', 'extension'],
          summary: 'A webhook (no secret)',
          responses: { 200: ok('the webhook', data(ref('Webhook'))), ...errors(404), ...COMMON },
        },
        delete: {
          operationId: 'deleteWebhook',
          tags: ['webhooks', 'extension'],
          summary: 'Delete a webhook',
          responses: { 204: { description: 'deleted' }, ...errors(404), ...COMMON },
        },
      },
      '/v1/webhooks/{id}/deliveries': {
        parameters: [idParam('id', 'webhook')],
        get: {
          operationId: 'listDeliveries',
          tags: ['webhooks', 'extension'],
          summary: 'The webhook’s delivery log, newest first (the last 1,000 of the workspace)',
          parameters: LIST_PARAMS,
          responses: { 200: ok('a page of deliveries', list('Delivery')), ...errors(400, 404), ...COMMON },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the workspace API key' } },
      responses: Object.fromEntries(
        [
          [
            400,
            'a parameter or the body is not valid (invalid_limit, invalid_cursor, invalid_status, invalid_query, missing_field, …)',
          ],
          [401, 'no API key, or not a valid one'],
          [404, 'no such record in this workspace, or no such route'],
          [409, 'the thread is not OPEN (thread_not_open)'],
          [413, 'the body is too large'],
          [415, 'the body is not JSON'],
          [422, 'a value is out of bounds (too_long, empty_field, invalid_url, invalid_events, …)'],
          [429, 'too many requests (--rate-limit): see Retry-After'],
          [503, 'the change could not be stored (storage_unavailable): nothing was changed'],
        ].map(([status, description]) => [`E${status}`, { description, content: json(ref('Error')) }]),
      ),
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                requestId: { type: 'string' },
              },
            },
          },
        },
        PageMeta: {
          type: 'object',
          required: ['returned', 'limit', 'nextCursor', 'hasMore'],
          properties: {
            returned: { type: 'integer', minimum: 0 },
            limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
            nextCursor: {
              ...nullable({ type: 'string' }),
              description: 'give it as ?cursor= for the next page',
            },
            hasMore: { type: 'boolean' },
          },
        },
        Thread: {
          type: 'object',
          required: ['id', 'title', 'status', 'createdAt', 'updatedAt'],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'string', enum: [...THREAD_STATUSES] },
            createdAt: timestamp,
            updatedAt: timestamp,
          },
        },
        Message: {
          type: 'object',
          required: ['id', 'role', 'content', 'createdAt'],
          properties: {
            id: { type: 'string' },
            role: { type: 'string', enum: ['user', 'assistant'] },
            content: { type: 'string' },
            createdAt: timestamp,
            sources: {
              type: 'array',
              items: { type: 'string' },
              description: 'the files a reply drew on, with pages for a PDF (`manual.pdf p. 3`)',
            },
            incomplete: { type: 'boolean', description: 'a reply stopped before it was finished' },
            inProgress: {
              type: 'boolean',
              description: 'beta: a reply still being written by a generation (its text so far)',
            },
          },
        },
        ThreadWithMessages: {
          allOf: [
            ref('Thread'),
            {
              type: 'object',
              required: ['messages'],
              properties: { messages: { type: 'array', items: ref('Message') } },
            },
          ],
        },
        Exchange: {
          type: 'object',
          required: ['userMessage', 'aiResponse'],
          properties: { userMessage: ref('Message'), aiResponse: ref('Message') },
        },
        Generation: {
          type: 'object',
          required: ['id', 'threadId', 'status', 'createdAt', 'text', 'sequence'],
          properties: {
            id: { type: 'string' },
            threadId: { type: 'string' },
            status: { type: 'string', enum: ['in_progress', 'completed', 'cancelled', 'failed'] },
            createdAt: timestamp,
            text: { type: 'string', description: 'the reply so far' },
            sequence: { type: 'integer', minimum: 0, description: 'events so far' },
            userMessage: ref('Message'),
            aiResponse: ref('Message'),
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
        File: {
          type: 'object',
          required: ['id', 'originalFilename', 'fileSize', 'mimeType', 'indexingStatus', 'createdAt'],
          properties: {
            id: { type: 'string' },
            originalFilename: {
              type: 'string',
              description: 'a --docs file’s path in the folder (`hr/benefits.docx`)',
            },
            fileSize: { type: 'integer', minimum: 0 },
            mimeType: { type: 'string' },
            indexingStatus: { type: 'string', enum: [...FILE_STATUSES] },
            createdAt: timestamp,
          },
        },
        FileDetail: {
          allOf: [
            ref('File'),
            {
              type: 'object',
              required: ['updatedAt', 'indexingStartedAt', 'indexedAt', 'chunkCount', 'indexingError'],
              properties: {
                updatedAt: timestamp,
                indexingStartedAt: nullable(timestamp),
                indexedAt: nullable(timestamp),
                chunkCount: { type: 'integer', minimum: 0 },
                indexingError: nullable({
                  type: 'object',
                  required: ['code', 'message'],
                  properties: { code: { type: 'string' }, message: { type: 'string' } },
                }),
                ocr: {
                  type: 'object',
                  description:
                    'a scanned PDF or an image whose text was recognised (OCR); absent for other files. Low-confidence text is indexed too.',
                  required: ['pages', 'meanConfidence'],
                  properties: {
                    pages: { type: 'integer', minimum: 0, description: 'pages (an image is one) recognised' },
                    meanConfidence: {
                      type: 'integer',
                      minimum: 0,
                      maximum: 100,
                      description: 'the OCR engine’s confidence in their words, averaged over those pages',
                    },
                    skippedPages: {
                      type: 'integer',
                      minimum: 1,
                      description:
                        'scanned pages not read (past --ocr-pages or the time limit, or the engine failed)',
                    },
                    skipped: {
                      type: 'string',
                      description: 'why, e.g. "page 101 on: the page limit (100 per document)"',
                    },
                  },
                },
              },
            },
          ],
        },
        SearchResult: {
          type: 'object',
          required: ['query', 'answered', 'data'],
          properties: {
            query: { type: 'string' },
            answered: {
              type: 'boolean',
              description: 'a passage answers: the assistant would answer rather than say it found nothing',
            },
            data: { type: 'array', items: ref('SearchHit') },
            indexing: {
              type: 'integer',
              minimum: 0,
              description:
                'how many of the workspace’s files are still being indexed (PENDING or PROCESSING): not searched yet',
            },
          },
        },
        SearchHit: {
          type: 'object',
          required: ['rank', 'fileId', 'filename', 'pages', 'score', 'answers', 'text', 'passages'],
          properties: {
            rank: { type: 'integer', minimum: 1 },
            fileId: { type: 'string' },
            filename: { type: 'string' },
            pages: {
              ...nullable({
                type: 'array',
                items: { type: 'integer', minimum: 1 },
                minItems: 2,
                maxItems: 2,
              }),
              description: 'the first and last page the chunk is from (a document with pages), else null',
            },
            score: { type: 'number', description: 'the retrieval’s score (BM25, or fused with embeddings)' },
            answers: { type: 'boolean', description: 'the chunk holds a passage that answers the question' },
            text: { type: 'string', description: 'the chunk' },
            passages: {
              type: 'array',
              description: 'the chunk’s passages that the answer is made of',
              items: {
                type: 'object',
                required: ['text', 'relevance'],
                properties: { text: { type: 'string' }, relevance: { type: 'number', minimum: 0 } },
              },
            },
            best: {
              ...nullable({
                type: 'object',
                required: ['text', 'relevance'],
                properties: { text: { type: 'string' }, relevance: { type: 'number', minimum: 0 } },
              }),
              description:
                'the chunk’s passage most relevant to the question, answering or not: why it was retrieved (null: none)',
            },
          },
        },
        User: {
          type: 'object',
          required: ['id', 'name', 'email', 'createdAt'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            email: { type: 'string' },
            createdAt: timestamp,
          },
        },
        Webhook: {
          type: 'object',
          required: ['id', 'url', 'events', 'isActive', 'createdAt'],
          properties: {
            id: { type: 'string' },
            url: { type: 'string' },
            events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
            isActive: { type: 'boolean' },
            createdAt: timestamp,
          },
        },
        WebhookWithSecret: {
          allOf: [
            ref('Webhook'),
            {
              type: 'object',
              required: ['secret'],
              properties: { secret: { type: 'string', pattern: '^whsec_' } },
            },
          ],
        },
        Delivery: {
          type: 'object',
          required: ['id', 'webhookId', 'eventId', 'type', 'createdAt', 'state', 'attempts'],
          properties: {
            id: { type: 'string' },
            webhookId: { type: 'string' },
            eventId: { type: 'string' },
            type: { type: 'string', enum: [...WEBHOOK_EVENTS] },
            createdAt: timestamp,
            state: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
            attempts: {
              type: 'array',
              items: {
                type: 'object',
                required: ['at', 'ms'],
                properties: {
                  at: timestamp,
                  status: { type: 'integer' },
                  error: { type: 'string' },
                  ms: { type: 'number', minimum: 0 },
                },
              },
            },
          },
        },
      },
    },
  };
}
