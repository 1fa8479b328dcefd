export const DEFAULT_TIMEOUT_MS = 30_000;
/** Posting a message waits for the assistant's reply. */
export const MESSAGE_TIMEOUT_MS = 300_000;
export const CONNECT_TIMEOUT_MS = 10_000;
