import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** Claims the test provider asserts for the next sign-in. */
export interface TestOidcAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who "signs in" at the provider's (automatic) login page next. */
  setNextAccount(account: TestOidcAccount): void;
  /** Answer the next interaction with this OAuth error instead of a login (e.g. access_denied). */
  denyNext(error: string): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on a free loopback port, with one confidential
 * client whose redirect URIs are the gateway callbacks below `publicWebUrl`. The login
 * interaction is automatic: it signs in whoever `setNextAccount` named (no form to fill), and
 * consent is granted by `loadExistingGrant` (a first-party client).
 */
export async function startTestOidcProvider(
  publicWebUrl: string,
  providerNames: string[],
): Promise<TestOidcProvider> {
  const clientId = 'platform-test-client';
  const clientSecret = 'platform-test-client-secret-0123456789';
  const accounts = new Map<string, TestOidcAccount>();
  let next: TestOidcAccount | undefined;
  let deny: string | undefined;

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: providerNames.map((name) => `${publicWebUrl}/api/v1/sso/callback/${name}`),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ ...account }) } : undefined;
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['test-oidc-cookie-key-0123456789abcdef'] },
    // Own signing key and lifetimes, so the provider does not warn about its development defaults.
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          kid: 'test',
          use: 'sig',
          alg: 'RS256',
        },
      ],
    },
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        await provider.interactionDetails(req, res);
        if (deny) {
          const error = deny;
          deny = undefined;
          await provider.interactionFinished(req, res, { error }, { mergeWithLastSubmission: false });
          return;
        }
        if (!next) throw new Error('test OIDC provider: no account set for this sign-in');
        accounts.set(next.sub, next);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: next.sub } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    })();
  });

  return {
    issuer,
    clientId,
    clientSecret,
    setNextAccount(account) {
      next = account;
    },
    denyNext(error) {
      deny = error;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookie jar for one origin, enough for the provider's session cookies. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair!.indexOf('=');
      if (index > 0) this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Plays the browser from the provider's authorization URL to the redirect back: follows the
 * provider's redirects (keeping its cookies) and stops at the first Location outside the
 * provider, which is the callback URL with `code` and `state` (or `error`).
 */
export async function signInAtProvider(authorizationUrl: string, issuer: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(response);
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`provider answered ${response.status} at ${url.href}: ${await response.text()}`);
    await response.arrayBuffer();
    url = new URL(location, url);
    if (url.origin !== new URL(issuer).origin) return url;
  }
  throw new Error('too many redirects at the provider');
}
