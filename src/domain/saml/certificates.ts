import { randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';

/** One PEM certificate block, nothing before or after it. */
const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----$/;

/** The certificate when `text` is exactly one PEM-encoded X.509 certificate, else null. */
export function parsePemCertificate(text: string): X509Certificate | null {
  if (!PEM_CERTIFICATE.test(text)) return null;
  try {
    return new X509Certificate(text);
  } catch {
    return null;
  }
}

// ─── a minimal DER writer: just what a self-signed RSA certificate needs ─────────────────────────────

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : n < 0x10000 ? Buffer.from([0x82, n >> 8, n & 0xff]) : null;
  if (!length) throw new Error('DER value too long');
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));

/** A non-negative INTEGER from big-endian bytes (a leading zero keeps the sign bit clear). */
const integer = (bytes: Buffer) => tlv(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const part of rest) {
    const base128 = [part & 0x7f];
    for (let value = part >>> 7; value > 0; value >>>= 7) base128.unshift((value & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime from 2050 on (RFC 5280 §4.1.2.5). */
function time(at: Date): Buffer {
  const digits = at.toISOString().replace(/\D/g, '').slice(0, 14);
  return at.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}

/** A distinguished name with one common name. */
const name = (commonName: string) => sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));

const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

/**
 * A self-signed X.509 v3 certificate (PEM) for an RSA key pair, signed with SHA-256: what SAML
 * metadata needs to publish a signing key. Node can parse certificates but not make them.
 */
export function selfSignedCertificate(keys: { publicKey: KeyObject; privateKey: KeyObject }, commonName: string, notBefore: Date, notAfter: Date): string {
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  const subject = name(commonName);
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    SHA256_WITH_RSA,
    subject,
    sequence(time(notBefore), time(notAfter)),
    subject,
    keys.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, keys.privateKey);
  const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const lines = der.toString('base64').match(/.{1,64}/g)!;
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----`;
}
