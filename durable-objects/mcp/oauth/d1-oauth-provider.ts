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
import { missingScopes, unionScopes } from "./scopes";
import { stepUpRequest } from "./step-up";
import { MoreAccessRequiredError, SignInRequiredError } from "./sign-in-errors";
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
  | { kind: "callback"; codeVerifier: string; client?: OAuthClientInformationMixed }
  | { kind: "background"; serverName: string };

export class D1OAuthProvider implements OAuthClientProvider {
  /** Where the user should go to sign in, once the SDK decided a sign-in is needed. */
  authorizationUrl: URL | undefined;
  private startedState: string | undefined;
  private verifier: string | undefined;
  /** The registration this sign-in uses, kept with it: another Connect may register anew. */
  private client: OAuthClientInformationMixed | undefined;
  private sealedTokensRead: string | null = null;
  private discovered: OAuthDiscoveryState | undefined;
  /** Scopes a 403 just asked for: the SDK's next auth() is a step-up, which needs the user. */
  private stepUp: string | undefined;

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

  /** Every response of the MCP server passes here (see McpEndpoint.onResponse). */
  observeResponse(response: Response): void {
    const asked = stepUpRequest(response);
    if (asked !== null && this.mode.kind === "background") this.stepUp = asked;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    // The SDK calls this first in the auth() it starts after a 403: a turn cannot grant more
    // scopes (a refresh keeps the grant as it is), so it records the request for the user.
    if (this.stepUp !== undefined) {
      const asked = this.stepUp;
      this.stepUp = undefined;
      await this.needMoreAccess(asked);
    }
    // The code can only be exchanged by the client it was issued to, whatever is stored now.
    if (this.mode.kind === "callback" && this.mode.client) return this.mode.client;
    const info = await this.box.openJson((await this.row())?.client_info ?? null, ClientInfo);
    if (this.mode.kind === "interactive") this.client = info ?? undefined;
    if (info || this.mode.kind !== "background") return info ?? undefined;
    // A turn never registers: with no registration this server was never signed in to.
    await this.needSignIn(false);
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    this.client = info;
    // Tokens that work stay with the client they were issued to until this sign-in finishes
    // (the callback then stores its client with its tokens); a cancelled one changes nothing.
    if (this.mode.kind === "interactive" && (await this.row())?.tokens) return;
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
    const row = await this.row();
    const refresh = this.mode.kind === "background";
    // Refreshes must come from the client the tokens were issued to.
    const client = this.mode.kind === "callback" ? this.mode.client : undefined;
    // Scopes a server asked for stay wanted until a grant covers them; a refresh never does
    // unless the server says so, a new sign-in asked for them (and a token without `scope`
    // means the server granted what was asked).
    const stillWanted = row?.requested_scopes
      ? tokens.scope !== undefined
        ? missingScopes(row.requested_scopes, tokens.scope).length > 0
        : refresh
      : false;
    const fields = {
      tokens: await this.box.seal(JSON.stringify(tokens)),
      status: stillWanted ? ("sign_in_again" as const) : ("connected" as const),
      error_code: stillWanted ? "insufficient_scope" : null,
      error_message: null,
      requested_scopes: stillWanted ? row?.requested_scopes : null,
      scopes: tokens.scope ?? (refresh ? row?.scopes : null) ?? null,
      account: accountOf(tokens.id_token),
      expires_at: tokens.expires_in ? Date.now() + tokens.expires_in * 1000 : null,
      redirect_url: this.redirect,
      ...(client && { client_info: await this.box.seal(JSON.stringify(client)) }),
    };
    // A refresh replaces only the tokens it refreshed: after a Disconnect (or a newer sign-in)
    // in the meantime, what it got must not bring the old sign-in back.
    if (refresh) {
      if (this.sealedTokensRead)
        await updateConnection(this.db, this.key, fields, this.sealedTokensRead);
      return;
    }
    await writeConnection(this.db, this.key, fields);
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
      client_info: this.client ? await this.box.seal(JSON.stringify(this.client)) : null,
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

  private async needMoreAccess(asked: string): Promise<never> {
    if (this.mode.kind !== "background") throw new Error("unreachable");
    const row = await this.row();
    const requested = unionScopes(row?.requested_scopes, asked);
    await updateConnection(this.db, this.key, {
      status: "sign_in_again",
      error_code: "insufficient_scope",
      error_message: null,
      requested_scopes: requested ?? null,
    });
    throw new MoreAccessRequiredError(
      this.mode.serverName,
      missingScopes(requested, row?.scopes).join(" ") || requested,
    );
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
