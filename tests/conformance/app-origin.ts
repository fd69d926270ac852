/**
 * The app's origin in the conformance runs: https, as deployed, so the app introduces itself by
 * its Client ID Metadata Document where a server supports those. Nothing is fetched from it:
 * the client command hands the callback to finishSignIn directly, as the callback route does.
 */
export const APP_ORIGIN = "https://thinking-chat.example";
