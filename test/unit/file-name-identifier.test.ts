import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// tc-fq_codel(8) as a PDF (a fifteenth new user's trial): "How much memory can an fq_codel queue
// use by default?" was answered with the DESCRIPTION, though `memory_limit` / "… Default is 32
// MB." answers it: the page's file name names fq_codel (its text says FQ-CoDel), and a size is
// an amount.
const PARAMETERS = [
  'PARAMETERS',
  'limit',
  'has the same semantics as codel and is the hard limit on the real queue size. When this limit is reached, incoming packets are dropped. Default is 10240 packets.',
  'memory_limit',
  'sets a limit on the total number of bytes that can be queued in this FQ-CoDel instance. The lower of the packet limit of the limit parameter and the memory limit will be enforced. Default is 32 MB.',
  'flows',
  'is the number of flows into which the incoming packets are classified. Newer flows have priority over older ones.',
].join('\n');
const DESCRIPTION = [
  'DESCRIPTION',
  'FQ_Codel (Fair Queuing Controlled Delay) is queuing discipline that combines Fair Queuing with the CoDel AQM scheme. FQ_Codel uses a stochastic model to classify incoming packets into different flows and is used to provide a fair share of the bandwidth to all the flows using the queue.',
].join('\n');

describe("a name a man page's file name gives (tc-fq_codel.8.pdf)", () => {
  it('is held by every passage of the page, and a size answers "how much"', async () => {
    const page = (text: string, n: number) => ({ ...doc('man/tc-fq_codel.8.pdf', text), id: `fq:${n}` });
    const library = libraryOf([page(DESCRIPTION, 0), page(PARAMETERS, 1)], {
      memori: 2,
      fq_codel: 3,
      queue: 1.5,
      default: 1,
    });
    const content = await answerOf(library, 'How much memory can an fq_codel queue use by default?');
    expect(content).toMatch(/^memory_limit: .*Default is 32 MB\./);
  });
});
