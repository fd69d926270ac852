import { useEffect, useState } from "react";
import { api, ApiFailure, type User } from "./api";
import { ChatView } from "./ChatView";
import { ConversationList } from "./ConversationList";
import { SignIn } from "./SignIn";

type Auth =
  | { state: "checking" }
  | { state: "signed-out"; error?: string }
  | { state: "signed-in"; user: User };

export function App() {
  const [auth, setAuth] = useState<Auth>({ state: "checking" });
  const [selected, setSelected] = useState<string | null>(null);
  const [hint, setHint] = useState<string | null>(null);

  useEffect(() => {
    // `npm start` prints a link with the token in the fragment: it never reaches a server log.
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    if (token) history.replaceState(null, "", location.pathname);
    const check = token ? api.signIn(token) : api.session();
    check
      .then(({ user }) => setAuth({ state: "signed-in", user }))
      .catch((err: unknown) =>
        setAuth({
          state: "signed-out",
          ...(err instanceof ApiFailure && err.status !== 401 && { error: err.message }),
        }),
      );
  }, []);

  useEffect(() => {
    if (auth.state !== "signed-in") return;
    api
      .providers()
      .then((p) => setHint(p.hint ?? null))
      .catch(() => undefined);
  }, [auth.state]);

  if (auth.state === "checking") return <p className="centered">Loading…</p>;
  if (auth.state === "signed-out") {
    return (
      <SignIn error={auth.error} onSignedIn={(user) => setAuth({ state: "signed-in", user })} />
    );
  }
  return (
    <div className="layout">
      <ConversationList
        selected={selected}
        onSelect={setSelected}
        user={auth.user}
        onSignOut={() => api.signOut().finally(() => setAuth({ state: "signed-out" }))}
      />
      <main className="main">
        {hint && (
          <div role="alert" className="banner warning">
            {hint}
          </div>
        )}
        {selected ? (
          <ChatView key={selected} conversationId={selected} />
        ) : (
          <p className="centered muted">Create or pick a conversation.</p>
        )}
      </main>
    </div>
  );
}
