// The object's open sockets, listed once and kept until one opens or closes. Every event goes to
// them, and `agents`' getConnections asks the runtime for the list and deserializes each socket's
// attachment again on every call: per event, that cost more than storing the event.
import type { Connection } from "agents";

/** WebSocket.OPEN (workerd names it READY_STATE_OPEN). */
const OPEN = 1;
const isOpen = (c: Connection) => c.readyState === OPEN;

export class OpenSockets {
  #list: Connection[] | null = null;

  constructor(private readonly read: () => Iterable<Connection>) {}

  /** A socket was accepted or closed: the next look lists them again. */
  changed(): void {
    this.#list = null;
  }

  /** The sockets still open; one that closed since they were listed is left out from then on. */
  list(): readonly Connection[] {
    const list = (this.#list ??= [...this.read()]);
    return list.every(isOpen) ? list : (this.#list = list.filter(isOpen));
  }
}
