// The account a token belongs to, for display only: read from an OpenID id_token's claims.
// The token came straight from the token endpoint over TLS, so its signature is not checked
// here; nothing is authorised on the strength of this value.
import { z } from "zod";

const Claims = z.looseObject({
  email: z.string().optional(),
  preferred_username: z.string().optional(),
  name: z.string().optional(),
  sub: z.string().optional(),
});

export function accountOf(idToken: string | undefined): string | null {
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const claims = Claims.safeParse(JSON.parse(json));
    if (!claims.success) return null;
    const c = claims.data;
    return (c.email ?? c.preferred_username ?? c.name ?? c.sub ?? null)?.slice(0, 200) ?? null;
  } catch {
    return null;
  }
}
