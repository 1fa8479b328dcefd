/** What is wrong with a service's TLS certificate, as a person would act on it. */
export type CertificateProblem = 'self_signed' | 'wrong_host' | 'expired' | 'not_yet_valid' | 'untrusted';

const PROBLEMS: Record<string, CertificateProblem> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self_signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'self_signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrong_host',
  HOSTNAME_MISMATCH: 'wrong_host',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not_yet_valid',
  // "unable to verify the first certificate": a chain without its intermediate, or a private CA.
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
};

/**
 * The certificate problem behind a connection failure's code (Node's, or OpenSSL's verify
 * result), or undefined when the failure is not the certificate's. The verify codes not listed
 * above that name a certificate (CERT, ISSUER, CA) are an authority not trusted here.
 */
export function certificateProblem(code: string | undefined): CertificateProblem | undefined {
  if (!code) return undefined;
  return PROBLEMS[code] ?? (/CERT|ISSUER|INVALID_CA/.test(code) ? 'untrusted' : undefined);
}

/** One line saying what is wrong with `host`'s certificate. */
export function describeCertificateProblem(
  problem: CertificateProblem,
  host: string,
  hostname: string,
): string {
  const what = {
    self_signed: 'is self-signed',
    wrong_host: `is not issued for ${hostname}`,
    expired: 'has expired',
    not_yet_valid: 'is not valid yet',
    untrusted: 'is not signed by an authority this machine trusts',
  }[problem];
  return `the TLS certificate of ${host} ${what}`;
}
