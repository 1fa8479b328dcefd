import type { ChalkInstance } from 'chalk';
import type { Message, ThreadWithMessages } from '../../api/types.js';
import type { ChatClient, ChatSession } from '../session.js';

/** What a slash command returns: `exit` ends the REPL. */
export type SlashResult = undefined | 'exit';

/** What a slash command may use of the chat: the REPL offers this, not itself. */
export interface ChatContext {
  readonly session: ChatSession;
  readonly client: ChatClient;
  readonly color: ChalkInstance;
  readonly env: NodeJS.ProcessEnv;
  readonly commands: { all(): SlashCommand[] };
  /** The terminal's width now. */
  columns(): number;
  print(text: string): void;
  /** Bytes for the terminal itself (an OSC 52 copy), not text to show. */
  writeRaw(text: string): void;
  warn(text: string): void;
  /** A signal for one operation; Ctrl-C aborts it. */
  signal(): AbortSignal;
  lastReply(): Message | undefined;
  renderReply(reply: Message): string;
  showMessages(messages: Message[]): Promise<void>;
  sendMessage(content: string): Promise<void>;
  resume(id: string, loaded?: ThreadWithMessages): Promise<void>;
  pickThread(): Promise<string | undefined>;
  editMessage(): Promise<string | undefined>;
  /** Hands the terminal to something else (a pager), then takes it back. */
  suspendWhile<T>(action: () => Promise<T>): Promise<T>;
}

export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** Argument synopsis for /help, e.g. "[title]". */
  args?: string;
  description: string;
  run(chat: ChatContext, args: string): Promise<SlashResult> | SlashResult;
}
