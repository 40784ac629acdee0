import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// Test support: a small OpenID provider over node:http on 127.0.0.1 (discovery, authorize, token,
// JWKS, UserInfo) for the OIDC server tests and the browser journey. The token endpoint checks the
// client secret, the redirect URI and the PKCE verifier against the S256 challenge, like a real IdP.

export type Claims = Record<string, unknown>;

interface Grant {
  claims: Claims;
  nonce: string;
  codeChallenge: string;
  redirectUri: string;
}

export interface FakeOidcProvider {
  issuer: string;
  /** Token requests received, oldest first. */
  tokenRequests: URLSearchParams[];
  /** The provider's side of /authorize for a given authorization URL: a code for this identity. */
  issueCode(authorizationUrl: URL, claims: Claims, overrides?: { nonce?: string }): string;
  /** Who /authorize signs in when a browser visits it (it approves at once). */
  signInAs(claims: Claims): void;
  close(): Promise<void>;
}

/** An identity with this flag keeps its e-mail out of the ID token (UserInfo only), like some IdPs. */
export const EMAIL_ONLY_IN_USERINFO = "emailOnlyInUserinfo";

const KID = "test-key";

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

export async function startFakeOidcProvider(client: { id: string; secret: string }): Promise<FakeOidcProvider> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const grants = new Map<string, Grant>();
  const userinfo = new Map<string, Claims>();
  const tokenRequests: URLSearchParams[] = [];
  let browserIdentity: Claims = {};
  let issuer = "";

  const idToken = (claims: Claims, nonce: string) => {
    // Real time, not the app's test clock: the client checks iat/exp against its own Date.now().
    const now = Math.floor(Date.now() / 1000);
    const input = `${b64url({ alg: "RS256", typ: "JWT", kid: KID })}.${b64url({ iss: issuer, aud: client.id, iat: now, exp: now + 300, nonce, ...claims })}`;
    return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
  };

  const issueCode = (authorizationUrl: URL, claims: Claims, overrides: { nonce?: string } = {}) => {
    const q = authorizationUrl.searchParams;
    const code = randomBytes(12).toString("hex");
    grants.set(code, {
      claims,
      nonce: overrides.nonce ?? q.get("nonce") ?? "",
      codeChallenge: q.get("code_challenge_method") === "S256" ? (q.get("code_challenge") ?? "") : "",
      redirectUri: q.get("redirect_uri") ?? "",
    });
    return code;
  };

  const token = async (req: IncomingMessage, res: ServerResponse) => {
    const params = new URLSearchParams(await readBody(req));
    tokenRequests.push(params);
    const code = params.get("code") ?? "";
    const grant = grants.get(code);
    grants.delete(code);
    const challenge = createHash("sha256")
      .update(params.get("code_verifier") ?? "")
      .digest("base64url");
    if (
      !grant ||
      params.get("client_id") !== client.id ||
      params.get("client_secret") !== client.secret ||
      params.get("redirect_uri") !== grant.redirectUri ||
      challenge !== grant.codeChallenge
    ) {
      return json(res, 400, { error: "invalid_grant" });
    }
    const accessToken = randomBytes(16).toString("hex");
    userinfo.set(accessToken, grant.claims);
    const { email: _email, email_verified: _verified, ...withoutEmail } = grant.claims;
    const inToken = grant.claims[EMAIL_ONLY_IN_USERINFO] ? withoutEmail : grant.claims;
    return json(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 300, id_token: idToken(inToken, grant.nonce) });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    switch (url.pathname) {
      case "/.well-known/openid-configuration":
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          userinfo_endpoint: `${issuer}/userinfo`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
        });
      case "/authorize": {
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", issueCode(url, browserIdentity));
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: back.href }).end();
        return undefined;
      }
      case "/jwks":
        return json(res, 200, { keys: [{ ...publicKey.export({ format: "jwk" }), kid: KID, alg: "RS256", use: "sig" }] });
      case "/userinfo": {
        const claims = userinfo.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
        return claims ? json(res, 200, claims) : json(res, 401, { error: "invalid_token" });
      }
      case "/token":
        if (req.method === "POST") {
          void token(req, res);
          return undefined;
        }
        return json(res, 405, { error: "method_not_allowed" });
      default:
        return json(res, 404, { error: "not_found" });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    tokenRequests,
    issueCode,
    signInAs(claims) {
      browserIdentity = claims;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
