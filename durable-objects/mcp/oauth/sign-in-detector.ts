// For "test the connection" before a server is saved: tells a server that wants an OAuth
// sign-in (its 401 leads to authorization server metadata) from one whose headers are wrong,
// without registering, storing or starting anything.
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { clientMetadata } from "./client-metadata";
import { SignInRequiredError } from "./sign-in-errors";

export class SignInDetector implements OAuthClientProvider {
  private discovered: OAuthDiscoveryState | undefined;

  constructor(
    private readonly serverName: string,
    private readonly redirect: string,
  ) {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return clientMetadata(this.redirect);
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  clientInformation(): undefined {
    if (!this.discovered?.authorizationServerMetadata)
      throw new Error("the server answered 401 and describes no OAuth sign-in; check its headers");
    throw new SignInRequiredError(this.serverName, false);
  }
  tokens() {
    return undefined;
  }
  saveTokens(): never {
    throw new Error("A connection test never signs in.");
  }
  redirectToAuthorization(): never {
    throw new Error("A connection test never signs in.");
  }
  saveCodeVerifier() {}
  codeVerifier(): never {
    throw new Error("A connection test never signs in.");
  }
}
