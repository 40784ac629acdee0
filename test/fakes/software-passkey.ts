import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

// Test support: a passkey in software, as a phone or a laptop's platform authenticator would answer
// the browser's WebAuthn calls (an ES256 key, attestation "none"). It answers the options our
// routes hand out with the JSON @simplewebauthn/browser would send, and lets a test choose the
// authenticator's flags, such as an assertion made without user verification (decision 049).

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data. */
export const FLAG_UP = 0x01;
export const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();

interface Options {
  challenge: string;
  user?: { id: string };
}

export class SoftwarePasskey {
  readonly id: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;
  private userHandle = "";

  /** `origin` is the site's (PUBLIC_URL's) origin; the RP ID is its host. Pass `id` to clone a credential id. */
  constructor(
    private readonly origin: string,
    id?: string,
  ) {
    this.id = id ?? b64url(randomBytes(32));
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  private authData(flags: number, attested: Buffer | null): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(new URL(this.origin).hostname), Buffer.from([flags | (attested ? FLAG_AT : 0)]), count, attested ?? Buffer.alloc(0)]);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The public key as COSE, base64url: what the passkeys table keeps of a registration. */
  get cosePublicKey(): string {
    return b64url(this.cose());
  }

  private cose(): Uint8Array {
    const jwk = this.publicKey.export({ format: "jwk" });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
  }

  /** The answer to navigator.credentials.create() for the registration options. */
  register(options: Options, flags = FLAG_UP | FLAG_UV): Record<string, unknown> {
    this.userHandle = options.user?.id ?? "";
    const cose = this.cose();
    const rawId = Buffer.from(this.id, "base64url");
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, Buffer.from(cose)]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", this.authData(flags, attested)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** The answer to navigator.credentials.get() for the authentication options. */
  assert(options: Options, flags = FLAG_UP | FLAG_UV): Record<string, unknown> {
    this.counter += 1;
    const authenticatorData = this.authData(flags, null);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
