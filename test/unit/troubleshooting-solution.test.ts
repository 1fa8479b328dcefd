import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// podman's troubleshooting.md (a new user's trial 41): each entry states its symptom, then its
// solution. Asked how to keep rootless containers running after logging out, kb answered with
// the symptom, which says the question's words back ("…are stopped and are not kept running").
const GUIDE = [
  doc(
    'podman-troubleshooting.md',
    [
      '21) Containers stop when the user logs out',
      'Symptom',
      'When logging out of a rootless user session, all containers that were started in detached mode are stopped and are not kept running.',
      'Solution',
      'When systemd notes that a session that started a Podman container has exited, it will also stop any containers that has been associated with it. To avoid this, use the following command before logging out: loginctl enable-linger.',
    ].join('\n'),
  ),
];
const WEIGHTS = weightsOf({
  rootless: 2.4,
  podman: 1.7,
  container: 0.9,
  stop: 1,
  log: 2,
  session: 2,
  keep: 1.5,
  running: 1.2,
});

describe("a troubleshooting guide's symptom and solution", () => {
  it('answer a how-to question with the solution', async () => {
    const answer = await answerOf(
      libraryOf(GUIDE, WEIGHTS),
      'All my rootless Podman containers stop when I log out of my session. How do I keep them running?',
    );
    expect(answer).toContain('loginctl enable-linger');
  });

  it('answer a question on what happens with the symptom', async () => {
    const answer = await answerOf(
      libraryOf(GUIDE, WEIGHTS),
      'What happens to rootless Podman containers when I log out of my session?',
    );
    expect(answer).toContain('are stopped and are not kept running');
  });
});
