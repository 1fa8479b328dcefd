import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 28 (K07): ldap.conf(5) as a PDF lists the values of `TLS_REQCERT <level>`
// under it, each a term with its definition; of `demand | hard` it says "This is the default
// setting.". "What is the default TLS_REQCERT level in ldap.conf?" was refused: the sentence's
// term is the value, and the option it is a value of, heading the list, counted as missing.
const LDAP_CONF = doc(
  'ldap/ldap.conf.5.pdf',
  [
    'TLS_REQCERT <level>',
    'never The client will not request or check any server certificate.',
    'allow The server certificate is requested. If a bad certificate is provided, it will be ignored and the session proceeds normally.',
    'try The server certificate is requested. If a bad certificate is provided, the session is immediately terminated.',
    'demand | hard',
    'These keywords are equivalent and the same as try. This is the default setting.',
    'TLS_REQSAN <level>',
    'Specifies what checks to perform on the subjectAlternativeName (SAN) extensions in a server certificate when validating the certificate name against the specified hostname of the server.',
  ].join('\n'),
  6,
);

describe("a value's entry in the list under its option", () => {
  it('answers for the option: the default is the value that says it is', async () => {
    const answer = await answerOf(
      libraryOf([LDAP_CONF], {
        [stem('tls_reqcert')]: 7,
        [stem('ldap.conf')]: 5,
        [stem('level')]: 3,
        [stem('default')]: 1.5,
      }),
      'What is the default TLS_REQCERT level in ldap.conf?',
    );
    expect(answer).toMatch(
      /demand \| hard: (?:These keywords are equivalent and the same as try\. )?This is the default setting\./,
    );
  });
});
