import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../src/index.js';

const SECRET = 'whsec_test_0123456789abcdef';
const BODY = '{"id":"evt_1","type":"file.indexed","data":{"name":"Zoë.pdf"}}';
const T = 1_700_000_000;

/** The reference HMAC (test/server/behaviour.test.ts checks deliveries against openssl itself). */
function openssl(data: string, secret = SECRET): string {
  return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

describe('signatures against independently computed vectors (openssl)', () => {
  it('signs the raw body with HMAC-SHA256 in lowercase hex (body scheme, the spec)', () => {
    expect(signPayload(BODY, SECRET, { timestamp: T })).toBe(`t=${T},v1=${openssl(BODY)}`);
  });

  it('signs "<t>.<body>" in the timestamped scheme', () => {
    expect(signPayload(BODY, SECRET, { timestamp: T, scheme: 'timestamped' })).toBe(
      `t=${T},v1=${openssl(`${T}.${BODY}`)}`,
    );
  });

  it('verifies an openssl signature, and several v1 values or secrets (rotation)', () => {
    const good = openssl(BODY);
    const other = openssl(BODY, 'whsec_old');
    expect(verifySignature(BODY, `t=${T},v1=${good}`, SECRET, { now: T })).toEqual({
      valid: true,
      timestamp: T,
    });
    expect(
      verifySignature(Buffer.from(BODY), `t=${T},v1=${other},v1=${good}`, SECRET, { now: T }).valid,
    ).toBe(true);
    expect(verifySignature(BODY, `t=${T},v1=${other}`, ['whsec_new', 'whsec_old'], { now: T }).valid).toBe(
      true,
    );
    expect(verifySignature(BODY, ` t=${T} , v1=${good} `, SECRET, { now: T }).valid).toBe(true);
    expect(verifySignature(BODY, `t=${T}000,v1=${good}`, SECRET, { now: T }).valid).toBe(true);
  });
});

describe('adversarial headers', () => {
  const good = openssl(BODY);
  const cases: [string, string | undefined, RegExp][] = [
    ['missing header', undefined, /missing Service-Signature/],
    ['empty header', '', /empty/],
    ['missing t', `v1=${good}`, /missing timestamp/],
    ['missing v1', `t=${T}`, /missing signature/],
    ['not key=value', `t=${T},${good}`, /not key=value/],
    ['two timestamps', `t=${T},t=${T},v1=${good}`, /more than one t=/],
    ['non-numeric t', `t=abc,v1=${good}`, /malformed timestamp/],
    ['uppercase hex', `t=${T},v1=${good.toUpperCase()}`, /lowercase hex/],
    ['wrong case key', `T=${T},V1=${good}`, /missing timestamp/],
    ['odd hex length', `t=${T},v1=${good.slice(1)}`, /64 hex digits/],
    ['non-hex', `t=${T},v1=${'z'.repeat(64)}`, /not hex/],
    ['signature for another body', `t=${T},v1=${openssl('{"id":"evt_2"}')}`, /mismatch/],
    ['timestamp outside tolerance', `t=${T - 301},v1=${good}`, /outside the tolerance of 300s/],
  ];
  it.each(cases)('rejects %s', (_, header, reason) => {
    const result = verifySignature(BODY, header, SECRET, { now: T });
    expect(result.valid).toBe(false);
    expect(result.valid === false && result.reason).toMatch(reason);
  });

  it('rejects a body re-serialised after parsing', () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(verifySignature(reserialised, `t=${T},v1=${good}`, SECRET, { now: T }).valid).toBe(false);
  });

  it('rejects the timestamped scheme signature under the body scheme and vice versa', () => {
    const timestamped = signPayload(BODY, SECRET, { timestamp: T, scheme: 'timestamped' });
    expect(verifySignature(BODY, timestamped, SECRET, { now: T }).valid).toBe(false);
    expect(verifySignature(BODY, timestamped, SECRET, { now: T, scheme: 'timestamped' }).valid).toBe(true);
  });

  it('skips the age check with tolerance 0', () => {
    expect(verifySignature(BODY, `t=1,v1=${openssl(BODY)}`, SECRET, { toleranceSeconds: 0 }).valid).toBe(
      true,
    );
  });
});
