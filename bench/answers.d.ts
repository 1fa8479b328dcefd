export interface AnswerQuality {
  cases: number;
  accuracy: number;
  byKind: Record<string, string>;
  noAnswerUncited: number;
  answerableRefused: number;
  recallAt5: number;
}
export function answerQuality(serverOptions?: Record<string, unknown>): Promise<AnswerQuality>;
export function qualityLine(label: string, quality: AnswerQuality): string;
