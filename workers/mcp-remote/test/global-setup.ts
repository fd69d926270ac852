import type { TestProject } from "vitest/node";
import { startFixtureServer } from "./fixture-server";

declare module "vitest" {
  export interface ProvidedContext {
    fixturesUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const fixtures = await startFixtureServer();
  project.provide("fixturesUrl", fixtures.url);
  return () => fixtures.stop();
}
