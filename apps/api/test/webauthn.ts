import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A software passkey for the console's sign-in tests: an ES256 key pair that answers WebAuthn
 * registration and authentication options as a platform authenticator with user verification
 * would, building authenticatorData, clientDataJSON and the "none" attestation itself, so the
 * server's verification runs on real signatures.
 */

// ---- a CBOR encoder for the few types an attestation object and a COSE key use ----

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

type Cbor = number | string | Buffer | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

export interface SoftPasskey {
  credentialId: string;
  /** Answers registration options (PublicKeyCredentialCreationOptionsJSON) as navigator.credentials.create would. */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): Record<string, unknown>;
  /** Answers authentication options as navigator.credentials.get would. */
  authenticate(options: { challenge: string; rpId?: string }, origin: string): Record<string, unknown>;
  /** The same credential id, signed with another key: a forged passkey. */
  forged(): SoftPasskey;
}

export function softPasskey(opts: { userHandle?: string; credentialId?: Buffer; key?: KeyObject } = {}): SoftPasskey {
  const credentialId = opts.credentialId ?? randomBytes(32);
  const { privateKey, publicKey } = opts.key
    ? { privateKey: opts.key, publicKey: null }
    : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  let counter = 0;

  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const counterBytes = () => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(counter);
    return b;
  };

  return {
    credentialId: b64url(credentialId),
    register(options, origin) {
      if (!publicKey) throw new Error('A forged passkey cannot register.');
      const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
      const coseKey = cbor(
        new Map<number, Cbor>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x, 'base64url')],
          [-3, Buffer.from(jwk.y, 'base64url')],
        ]),
      );
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      counter += 1;
      const authData = Buffer.concat([
        sha256(options.rp.id ?? new URL(origin).hostname),
        // User present, user verified, attested credential data included.
        Buffer.from([0x45]),
        counterBytes(),
        Buffer.alloc(16),
        idLength,
        credentialId,
        coseKey,
      ]);
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    authenticate(options, origin) {
      counter += 1;
      const authData = Buffer.concat([
        sha256(options.rpId ?? new URL(origin).hostname),
        Buffer.from([0x05]),
        counterBytes(),
      ]);
      const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          ...(opts.userHandle ? { userHandle: opts.userHandle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    forged() {
      return softPasskey({ credentialId, key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey });
    },
  };
}
