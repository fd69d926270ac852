// The MCP SDK's OAuthClientProvider over D1: registration, discovery, tokens and the PKCE
// verifier of one (user, server), secrets sealed with AES-GCM. Nothing lives only in memory, so
// a worker or Durable Object that sleeps between the redirect and the callback loses nothing.
//
// Modes: "interactive" (Connect: may register, starts a sign-in the user finishes in a popup),
// "callback" (exchanges the code with the stored verifier), "background" (a turn or a test:
// uses and refreshes tokens, and says SignInRequiredError where a person is needed).
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import {
  OAuthTokensSchema,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";
import { clientMetadata } from "./client-metadata";
import {
  type ConnectionKey,
  type ConnectionRow,
  type Display,
  forgetTokensIfUnchanged,
  insertPending,
  readConnection,
  updateConnection,
  writeConnection,
} from "./connection-store";
import type { SecretBox } from "./secret-box";
import { SignInRequiredError } from "./sign-in-errors";
import { accountOf } from "./token-claims";

// Stored as the SDK gave it (its `issuer` stamp included), so it reads back unchanged.
const ClientInfo = z.looseObject({
  client_id: z.string(),
  client_secret: z.string().optional(),
  issuer: z.string().optional(),
});
const Discovery = z.looseObject({ authorizationServerUrl: z.string() });

export const sha256Hex = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

const randomState = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

export type ProviderMode =
  | { kind: "interactive"; display: Display }
  | { kind: "callback"; codeVerifier: string }
  | { kind: "background"; serverName: string };

export class D1OAuthProvider implements OAuthClientProvider {
  /** Where the user should go to sign in, once the SDK decided a sign-in is needed. */
  authorizationUrl: URL | undefined;
  private startedState: string | undefined;
  private verifier: string | undefined;
  private sealedTokensRead: string | null = null;
  private discovered: OAuthDiscoveryState | undefined;

  constructor(
    private readonly db: D1Database,
    private readonly box: SecretBox,
    private readonly key: ConnectionKey,
    private readonly redirect: string,
    private readonly mode: ProviderMode,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadata(this.redirect);
  }

  private row(): Promise<ConnectionRow | null> {
    return readConnection(this.db, this.key);
  }

  state(): string {
    this.startedState ??= randomState();
    return this.startedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const info = await this.box.openJson((await this.row())?.client_info ?? null, ClientInfo);
    if (info || this.mode.kind !== "background") return info ?? undefined;
    // A turn never registers: with no registration this server was never signed in to.
    await this.needSignIn(false);
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await writeConnection(this.db, this.key, {
      client_info: await this.box.seal(JSON.stringify(info)),
      redirect_url: this.redirect,
    });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const row = await this.row();
    this.sealedTokensRead = row?.tokens ?? null;
    // Connect always asks the user again: that is what "Sign in again" is for.
    if (this.mode.kind === "interactive") return undefined;
    return (await this.box.openJson(row?.tokens ?? null, OAuthTokensSchema)) ?? undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await writeConnection(this.db, this.key, {
      tokens: await this.box.seal(JSON.stringify(tokens)),
      status: "connected",
      error_code: null,
      error_message: null,
      scopes: tokens.scope ?? null,
      account: accountOf(tokens.id_token),
      expires_at: tokens.expires_in ? Date.now() + tokens.expires_in * 1000 : null,
      redirect_url: this.redirect,
    });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.mode.kind === "callback") return this.mode.codeVerifier;
    if (this.verifier) return this.verifier;
    throw new Error("No sign-in is in progress for this server.");
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.mode.kind !== "interactive") {
      const row = await this.row();
      return this.needSignIn(row?.status === "connected" || row?.status === "sign_in_again");
    }
    if (!this.startedState || !this.verifier)
      throw new Error("The SDK started a sign-in without state.");
    await insertPending(this.db, {
      state_hash: await sha256Hex(this.startedState),
      server_id: this.key.serverId,
      user_id: this.key.userId,
      code_verifier: await this.box.seal(this.verifier),
      display: this.mode.display,
    });
    this.authorizationUrl = url;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "verifier") return;
    if (scope === "tokens") {
      if (this.sealedTokensRead)
        await forgetTokensIfUnchanged(this.db, this.key, this.sealedTokensRead);
      return;
    }
    await updateConnection(this.db, this.key, {
      ...((scope === "all" || scope === "client") && { client_info: null }),
      ...((scope === "all" || scope === "discovery") && { discovery: null }),
      ...(scope === "all" && { tokens: null, expires_at: null }),
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovered = state;
    const fields = { discovery: JSON.stringify(state) };
    // Only a sign-in creates a row; a turn or a test updates one that exists.
    if (this.mode.kind === "interactive") await writeConnection(this.db, this.key, fields);
    else await updateConnection(this.db, this.key, fields);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const raw = (await this.row())?.discovery;
    const parsed = raw ? Discovery.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? (parsed.data as OAuthDiscoveryState) : undefined;
  }

  /** What the last discovery found (for error messages and revocation). */
  get discovery(): OAuthDiscoveryState | undefined {
    return this.discovered;
  }

  private async needSignIn(again: boolean): Promise<never> {
    if (this.mode.kind !== "background") throw new Error("unreachable");
    const found = this.discovered?.authorizationServerMetadata;
    // 401 without any sign-in described: the headers are wrong, not a missing sign-in.
    if (!found && !(await this.row()))
      throw new Error("the server answered 401 and describes no OAuth sign-in; check its headers");
    await writeConnection(this.db, this.key, {
      status: again ? "sign_in_again" : "needs_sign_in",
      error_code: null,
      error_message: null,
      ...(this.discovered && { discovery: JSON.stringify(this.discovered) }),
    });
    throw new SignInRequiredError(this.mode.serverName, again);
  }
}
