import type { Connection } from "agents";
import { describe, expect, it } from "vitest";
import { OpenSockets } from "./open-sockets";

const socket = (id: string) => ({ id, readyState: 1 }) as unknown as Connection;
const close = (c: Connection) => Object.assign(c, { readyState: 3 });

describe("OpenSockets", () => {
  it("lists the sockets once until one opens or closes", () => {
    const runtime = [socket("a")];
    let reads = 0;
    const sockets = new OpenSockets(() => (reads++, runtime));
    expect(sockets.list().map((c) => c.id)).toEqual(["a"]);
    expect(sockets.list().map((c) => c.id)).toEqual(["a"]);
    expect(reads).toBe(1);
    runtime.push(socket("b"));
    sockets.changed();
    expect(sockets.list().map((c) => c.id)).toEqual(["a", "b"]);
    expect(reads).toBe(2);
  });

  it("leaves out a socket that closed even before it is told", () => {
    const runtime = [socket("a"), socket("b")];
    const sockets = new OpenSockets(() => runtime);
    sockets.list();
    close(runtime[0]!);
    expect(sockets.list().map((c) => c.id)).toEqual(["b"]);
  });
});
