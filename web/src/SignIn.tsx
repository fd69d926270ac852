import { type FormEvent, useState } from "react";
import { api, ApiFailure, type User } from "./api";
import { tokenFromInput } from "./start-link";

export function SignIn({
  error,
  onSignedIn,
}: {
  error?: string | undefined;
  onSignedIn: (u: User) => void;
}) {
  const [token, setToken] = useState("");
  const [problem, setProblem] = useState(error ?? null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      onSignedIn((await api.signIn(tokenFromInput(token))).user);
    } catch (err) {
      setProblem(err instanceof ApiFailure ? err.message : "Could not sign in.");
    }
  };
  return (
    <form className="sign-in" onSubmit={submit}>
      <h1>Thinking Chat</h1>
      <label htmlFor="token">API token</label>
      <input
        id="token"
        type="password"
        autoComplete="off"
        value={token}
        onChange={(e) => setToken(e.target.value)}
      />
      <button type="submit" disabled={token.trim().length < 10}>
        Sign in
      </button>
      <p className="muted">
        <code>npm start</code> prints a sign-in link; <code>npm run token:create</code> makes a new
        token.
      </p>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </form>
  );
}
