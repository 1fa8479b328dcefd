import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 36 (i10): wpa_supplicant's README-WPS says '"wpa_cli wps_check_pin <PIN>" can
// be used to do such processing. It returns FAIL if the PIN is invalid, or FAIL-CHECKSUM if the
// checksum digit is incorrect…'. Asked what wps_check_pin returns for a wrong checksum, kb
// refused: the sentence that answers names the command only by "It", the sentence before it.
// As kb serve chunks it.
const README_WPS = [
  doc(
    'wifi-network/README-WPS.gz',
    [
      'wpa_supplicant configuration',
      'WPS registration will generate new network blocks for the acquired credentials. If these are to be stored for future use (after restarting wpa_supplicant), wpa_supplicant will need to be configured to allow configuration file updates:',
      'update_config=1',
      'External operations',
      'WPS requires either a device PIN code (usually, 8-digit number) or a pushbutton event (for PBC) to allow a new WPS Enrollee to join the network. wpa_supplicant uses the control interface as an input channel for these events.',
      'The PIN value used in the commands must be processed by an UI to remove non-digit characters and potentially, to verify the checksum digit. "wpa_cli wps_check_pin <PIN>" can be used to do such processing.',
    ].join('\n'),
    0,
  ),
  doc(
    'wifi-network/README-WPS.gz',
    [
      'External operations',
      '"wpa_cli wps_check_pin <PIN>" can be used to do such processing. It returns FAIL if the PIN is invalid, or FAIL-CHECKSUM if the checksum digit is incorrect, or the processed PIN (non-digit characters removed) if the PIN is valid.',
      'If the client device has a display, a random PIN has to be generated for each WPS registration session. wpa_supplicant can do this with a control interface request, e.g., by calling wpa_cli:',
      'wpa_cli wps_pin any',
      'This will return the generated 8-digit PIN which will then need to be entered at the Registrar to complete WPS registration. At that point, the client will be enrolled with credentials needed to connect to the AP to access the network.',
    ].join('\n'),
    1,
  ),
];

describe('a sentence that names its subject "It", the one before naming it', () => {
  it('holds the names the sentence before gives', async () => {
    const library = libraryOf(
      README_WPS,
      weightsOf({ wpa_cli: 3, wps_check_pin: 7, return: 2.5, checksum: 5, digit: 4, wrong: 4 }),
    );
    const answer = await answerOf(
      library,
      'What does wpa_cli wps_check_pin return when the checksum digit is wrong?',
    );
    expect(answer).toContain('FAIL-CHECKSUM if the checksum digit is incorrect');
  });
});
