// The page a sign-in sends the user's browser to comes from the server's OAuth metadata
// (authorization_endpoint): a claim of a server we do not trust. The browser is only sent to an
// https page, or a plain http one on this machine in local development; never to file:,
// ms-msdt: or any other scheme that opens something else than a web page.
import { checkServerUrl } from "../url-guard";
import type { SignInProblem } from "./sign-in-errors";

export function authorizationPageProblem(
  page: URL,
  serverHost: string,
  allowLocal: boolean,
): SignInProblem | null {
  if (page.protocol === "https:") return null;
  if (page.protocol === "http:" && allowLocal && checkServerUrl(page.href, { allowLocal }).ok)
    return null;
  const where = page.protocol === "http:" ? `http://${page.host}` : `a ${page.protocol} address`;
  return {
    code: "metadata_invalid",
    message: `${serverHost} sends you to sign in at ${where}, which is not opened: a sign-in page must be https://. Ask its operator to fix authorization_endpoint in its OAuth metadata.`,
  };
}
