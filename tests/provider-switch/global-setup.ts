// aimock (all four wire protocols) behind a recorder of raw request bodies, and server-everything,
// on 127.0.0.1 for the provider-switch tests; the tests in workerd reach them through `inject`.
import { LLMock } from "@copilotkit/aimock";
import type { TestProject } from "vitest/node";
import { startEverythingServer } from "../support/everything-server";
import { addSwitchFixtures, refuseNativeTools } from "./switch-fixtures";
import { startWireRecorder } from "./wire-recorder";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the providers send their requests: the recorder in front of aimock. */
    switchMockUrl: string;
    /** aimock itself, for its journal. */
    switchJournalUrl: string;
    switchEverythingUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent" });
  addSwitchFixtures(mock);
  await mock.start();
  const recorder = await startWireRecorder(mock.url, refuseNativeTools);
  const everything = await startEverythingServer();
  // The providers talk to the recorder, which passes every request on to aimock.
  project.provide("switchMockUrl", recorder.url);
  project.provide("switchJournalUrl", mock.url);
  project.provide("switchEverythingUrl", everything.url);
  return async () => {
    await recorder.stop();
    await mock.stop();
    everything.stop();
  };
}
