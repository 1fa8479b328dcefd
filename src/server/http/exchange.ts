import type { Service } from '../context.js';
import type { Conversed } from '../conversation/conversation.js';
import { presentMessage } from './present.js';

/**
 * An exchange as the API shows it, announced: one thread.message.created per message stored,
 * the user's then the reply (none for a reply withdrawn before its turn).
 */
export function announced(service: Service, workspaceId: string, threadId: string, result: Conversed) {
  const userMessage = presentMessage(result.userMessage);
  const aiResponse = result.withdrawn ? undefined : presentMessage(result.aiResponse);
  for (const message of aiResponse ? [userMessage, aiResponse] : [userMessage])
    service.deliverer.emit(workspaceId, 'thread.message.created', { threadId, message });
  return { userMessage, aiResponse };
}
