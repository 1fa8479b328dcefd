import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 43 (i04): "What audio bitrate and sample rate does mpv's enc-a-opus encoding
// profile use?" was answered with the section down to `audio-samplerate = 48000`, one line short
// of the bitrate (`oacopts = b=96k`, which says no word of the question).
const PROFILES = docLines('mpv/encoding-profiles.conf', 2, [
  '[enc-a-vorbis]',
  'profile-desc = "Vorbis (libvorbis)"',
  'oac = libvorbis',
  'oacopts = qscale=3',
  '',
  '[enc-a-opus]',
  'profile-desc = "Opus (libopus or FFmpeg)"',
  'oac = libopus,opus',
  'audio-samplerate = 48000',
  'oacopts = b=96k',
  '',
  '[enc-v-mpeg4]',
  'profile-desc = "MPEG-4 Part 2 (FFmpeg)"',
  'ovc = mpeg4',
  'ovcopts = qscale=4',
]);

describe('a short section of a configuration file', () => {
  it('is shown whole when one of its settings answers', async () => {
    const answer = await answerOf(
      libraryOf(
        [PROFILES],
        weightsOf({ 'enc-a-opus': 8, opus: 3, samplerate: 4, audio: 2, bitrate: 4, mpv: 2 }),
      ),
      "What audio bitrate and sample rate does mpv's enc-a-opus encoding profile use?",
    );
    expect(answer).toContain(
      '[enc-a-opus]\nprofile-desc = "Opus (libopus or FFmpeg)"\noac = libopus,opus\naudio-samplerate = 48000\noacopts = b=96k\n',
    );
    expect(answer).not.toContain('[enc-v-mpeg4]');
    expect(answer).not.toContain('qscale');
  });
});
