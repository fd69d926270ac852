// @vitest-environment jsdom
// A page open across a deploy offers a reload once the new build's service worker has installed,
// and a page that already is that build says nothing.
import { act } from "react";
import { afterEach, beforeEach, expect, it } from "vitest";
import { pageBuild, resetNewBuildForTests, watchForNewBuild } from "../app-update";
import { mountInPage } from "../test-page";
import { UpdateNotice } from "./UpdateNotice";

/** A service worker of one build, which answers a page asking it, as web/public/sw.js does. */
class Worker extends EventTarget {
  constructor(
    readonly build: string | null,
    public state: ServiceWorkerState = "installing",
  ) {
    super();
  }
  postMessage(message: { type: string }, [port]: MessagePort[]) {
    // A worker from before builds had ids does not answer.
    if (message.type === "build?" && this.build) port!.postMessage({ build: this.build });
  }
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event("statechange"));
  }
}
class Registration extends EventTarget {
  installing: Worker | null = null;
  waiting: Worker | null = null;
  updates = 0;
  async update() {
    this.updates += 1;
  }
  found(worker: Worker) {
    this.installing = worker;
    this.dispatchEvent(new Event("updatefound"));
  }
}
class Container extends EventTarget {
  controller: Worker | null = null;
  takenBy(worker: Worker) {
    this.controller = worker;
    this.dispatchEvent(new Event("controllerchange"));
  }
}

let stop = () => undefined as void;
beforeEach(() => {
  resetNewBuildForTests();
  document.head.insertAdjacentHTML("beforeend", '<meta name="build-id" content="one" />');
});
afterEach(() => {
  stop();
  document.head.querySelector('meta[name="build-id"]')?.remove();
});

async function watch(registration: Registration, container = new Container()) {
  const { host, root } = mountInPage();
  await act(async () => root.render(<UpdateNotice />));
  stop = watchForNewBuild(
    container as unknown as ServiceWorkerContainer,
    registration as unknown as ServiceWorkerRegistration,
    pageBuild(),
  );
  return { host, container };
}
/** Until the worker's answer has come back over its port and React has drawn it. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));
const notice = (host: HTMLElement) => host.querySelector('[role="status"]');

it("says a new version is ready, with Reload, once a worker of another build has installed", async () => {
  const registration = new Registration();
  const { host } = await watch(registration);
  const two = new Worker("two");
  registration.found(two);
  await settle();
  expect(notice(host)).toBeNull();
  two.become("installed");
  await settle();
  expect(notice(host)?.textContent).toContain("A new version is ready.");
  expect(notice(host)?.querySelector("button")?.textContent).toBe("Reload");
});

it("says nothing when the worker that installs or takes over is this page's own build", async () => {
  const registration = new Registration();
  const { host, container } = await watch(registration);
  const one = new Worker("one");
  registration.found(one);
  one.become("installed");
  one.become("activated");
  container.takenBy(one);
  await settle();
  expect(notice(host)).toBeNull();
});

it("says so when a worker of another build takes the page over (another tab brought it)", async () => {
  const { host, container } = await watch(new Registration());
  container.takenBy(new Worker("two", "activated"));
  await settle();
  expect(notice(host)?.textContent).toContain("A new version is ready.");
});

it("says so for a new build already waiting when the page starts", async () => {
  const registration = new Registration();
  registration.waiting = new Worker("two", "installed");
  const { host } = await watch(registration);
  await settle();
  expect(notice(host)?.textContent).toContain("A new version is ready.");
});

it("looks for a new worker when the network comes back, as a tab left open makes no navigation", async () => {
  const registration = new Registration();
  await watch(registration);
  window.dispatchEvent(new Event("online"));
  expect(registration.updates).toBe(1);
});

it("an unbuilt page (the Vite dev server) never offers one", async () => {
  document.head.querySelector('meta[name="build-id"]')?.remove();
  const registration = new Registration();
  registration.waiting = new Worker("two", "installed");
  const { host } = await watch(registration);
  await settle();
  expect(notice(host)).toBeNull();
});
