import type { Credential } from "./auth/session";
import type { User } from "./auth/users";
import type { Db } from "../../../shared/db/client";
import type { Env } from "../../../shared/env";

export interface AppVariables {
  db: Db;
  user: User;
  /** The token, and the session if any, that authenticated the request. */
  credential: Credential;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
