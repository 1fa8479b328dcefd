/**
 * A message that is only a greeting or thanks ("hello", "Hi there!", "thanks a lot"): no question
 * for the documents. Asked as one, "hello" was answered with BIRD's OSPF "Hello interval" (a new
 * user's trial 42).
 */
const GREETING =
  /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|yo)(?: there| everyone| all)?$/;
const THANKS = /^(?:thanks|thank you|thx|ty|cheers|much appreciated)(?: (?:so much|a lot|very much|again))?$/;

export const GREETING_REPLY =
  "Hello! Ask me anything about this workspace's documents: I answer from them and name the files I used.";
export const THANKS_REPLY = "You're welcome.";

/** The reply to a message that is only small talk; undefined for anything else. */
export function smallTalk(message: string): string | undefined {
  // Without its marks and emoji: "Hello!!", "thanks :)", "hi 👋".
  const said = message
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (GREETING.test(said)) return GREETING_REPLY;
  if (THANKS.test(said)) return THANKS_REPLY;
  return undefined;
}
