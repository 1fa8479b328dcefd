import { describe, expect, it } from 'vitest';
import { answerQuality } from '../../bench/answers.js';
import { fakeEmbeddingsServer } from '../helpers/fake-embeddings.js';

describe('the labelled set (bench/answers.eval.yaml), run by kb eval', () => {
  it('with a local embeddings endpoint finds paraphrases BM25 cannot, and still cites nothing when nothing answers', async () => {
    const lexical = await answerQuality();
    const fake = await fakeEmbeddingsServer();
    try {
      const semantic = await answerQuality({ embeddings: { baseUrl: fake.url, model: 'fake' } });
      expect(lexical.byKind['no answer']).toBe('8/8');
      expect(semantic.byKind['no answer']).toBe('8/8');
      expect(semantic.byKind.keyword).toBe(lexical.byKind.keyword);
      expect(Number(semantic.byKind.paraphrase!.split('/')[0])).toBeGreaterThan(
        Number(lexical.byKind.paraphrase!.split('/')[0]),
      );
      expect(semantic.recallAt5).toBeGreaterThanOrEqual(lexical.recallAt5);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
