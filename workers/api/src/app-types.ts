import type { User } from "./auth/users";
import type { Db } from "./db/client";
import type { Env } from "./env";

export interface AppVariables {
  db: Db;
  user: User;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
