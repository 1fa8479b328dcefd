import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureScheme = 'body' | 'timestamped';

export const SIGNATURE_HEADER = 'service-signature';

export interface SignOptions {
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  /** `body` (the spec: HMAC over the raw body) or `timestamped` (over "<t>.<body>", as Stripe does). */
  scheme?: SignatureScheme;
}

export interface VerifyOptions {
  scheme?: SignatureScheme;
  /** Maximum age (either way) of `t` in seconds; 0 turns the check off. Default 300. */
  toleranceSeconds?: number;
  /** Unix seconds, for tests. */
  now?: number;
}

export type VerifyResult =
  { valid: true; timestamp: number } | { valid: false; reason: string; timestamp?: number };

function hmac(secret: string, scheme: SignatureScheme, timestamp: string, body: Buffer): string {
  const mac = createHmac('sha256', secret);
  if (scheme === 'timestamped') mac.update(`${timestamp}.`);
  return mac.update(body).digest('hex');
}

function toBuffer(body: string | Buffer | Uint8Array): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

/** Why these secrets cannot sign or verify anything, or undefined when they can. */
export function secretsProblem(secrets: string[]): string | undefined {
  if (secrets.length === 0) return 'no secret given';
  // An empty key makes an HMAC anyone can compute.
  if (secrets.some((s) => typeof s !== 'string' || s.length === 0)) return 'the secret is empty';
  return undefined;
}

/** Why a tolerance is not a number of seconds, or undefined when it is (0 turns the age check off). */
export function toleranceProblem(seconds: number): string | undefined {
  return Number.isFinite(seconds) && seconds >= 0
    ? undefined
    : `the tolerance must be a finite number of seconds, 0 or more (got ${seconds})`;
}

/** The `Service-Signature` value for a body: `t=<unix seconds>,v1=<lowercase hex HMAC-SHA256>`. */
export function signPayload(
  rawBody: string | Buffer | Uint8Array,
  secret: string | string[],
  options: SignOptions = {},
): string {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const secrets = Array.isArray(secret) ? secret : [secret];
  const problem = secretsProblem(secrets);
  if (problem) throw new TypeError(`cannot sign: ${problem}`);
  const body = toBuffer(rawBody);
  return [
    `t=${timestamp}`,
    ...secrets.map((s) => `v1=${hmac(s, options.scheme ?? 'body', timestamp, body)}`),
  ].join(',');
}

interface ParsedHeader {
  timestamp?: string;
  signatures: string[];
}

function parseHeader(header: string): ParsedHeader | string {
  const parsed: ParsedHeader = { signatures: [] };
  if (!header.trim()) return 'empty signature header';
  for (const part of header.split(',')) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const eq = trimmed.indexOf('=');
    if (eq <= 0) return `malformed signature header: "${trimmed.slice(0, 40)}" is not key=value`;
    const key = trimmed.slice(0, eq).trim();
    const value = trimmed.slice(eq + 1).trim();
    if (key === 't') {
      if (parsed.timestamp !== undefined) return 'malformed signature header: more than one t=';
      parsed.timestamp = value;
    } else if (key === 'v1') parsed.signatures.push(value);
  }
  return parsed;
}

/**
 * Checks a `Service-Signature` header against the raw body, as the spec says: HMAC-SHA256 keyed
 * with the webhook secret over the unparsed body, lowercase hex, compared in constant time.
 * Several `v1=` values, or several secrets, pass when any pair matches (secret rotation).
 */
export function verifySignature(
  rawBody: string | Buffer | Uint8Array,
  header: string | undefined,
  secret: string | string[],
  options: VerifyOptions = {},
): VerifyResult {
  const secrets = Array.isArray(secret) ? secret : [secret];
  const problem = secretsProblem(secrets) ?? toleranceProblem(options.toleranceSeconds ?? 300);
  if (problem) return { valid: false, reason: problem };
  if (header === undefined) return { valid: false, reason: 'missing Service-Signature header' };
  const parsed = parseHeader(header);
  if (typeof parsed === 'string') return { valid: false, reason: parsed };
  if (parsed.timestamp === undefined)
    return { valid: false, reason: 'missing timestamp (t=) in signature header' };
  if (!/^\d{1,16}$/.test(parsed.timestamp))
    return { valid: false, reason: 'malformed timestamp: t must be a whole number' };
  if (parsed.signatures.length === 0)
    return { valid: false, reason: 'missing signature (v1=) in signature header' };
  const raw = Number(parsed.timestamp);
  // Seconds per our service; a 13-digit value is read as milliseconds, as some servers send.
  const timestamp = raw > 1e12 ? Math.floor(raw / 1000) : raw;
  for (const sig of parsed.signatures) {
    if (!/^[0-9a-f]*$/.test(sig)) {
      return {
        valid: false,
        reason: /^[0-9a-fA-F]+$/.test(sig)
          ? 'malformed signature: v1 must be lowercase hex'
          : 'malformed signature: v1 is not hex',
        timestamp,
      };
    }
    if (sig.length !== 64)
      return {
        valid: false,
        reason: `malformed signature: v1 must be 64 hex digits, got ${sig.length}`,
        timestamp,
      };
  }
  const tolerance = options.toleranceSeconds ?? 300;
  if (tolerance > 0) {
    const now = options.now ?? Math.floor(Date.now() / 1000);
    if (Math.abs(now - timestamp) > tolerance) {
      return {
        valid: false,
        reason: `timestamp outside the tolerance of ${tolerance}s (${now - timestamp}s old)`,
        timestamp,
      };
    }
  }
  const body = toBuffer(rawBody);
  let matched = false;
  for (const s of secrets) {
    const expected = Buffer.from(hmac(s, options.scheme ?? 'body', parsed.timestamp, body), 'hex');
    for (const sig of parsed.signatures) {
      // Every pair is compared, so the time taken does not tell which matched.
      if (timingSafeEqual(expected, Buffer.from(sig, 'hex'))) matched = true;
    }
  }
  return matched
    ? { valid: true, timestamp }
    : { valid: false, reason: 'signature mismatch: the body was not signed with this secret', timestamp };
}
