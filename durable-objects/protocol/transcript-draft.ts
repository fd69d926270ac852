// A working copy of a transcript that a batch of events is folded into. The transcript handed in
// is never changed: the draft copies each of its lists once, on the first write of the batch,
// and then edits the copy in place. Copying the message list for every event made catching up
// on a long conversation quadratic (10,000 messages took seconds); now a batch costs one copy.
import type { ArtifactNow, Transcript, TranscriptMessage } from "./transcript";

/** How far from the end a message is looked for before the whole list is searched. */
const SCAN_FROM_END = 16;

/** Where each message is, by id, and which ones are still streaming. */
interface MessageIndex {
  at: Map<string, number>;
  streaming: Set<string>;
}

/**
 * The index of a message list the fold made, handed on to the next batch folded onto that list
 * (which takes it and keeps it up to date), so it is built once per conversation, not per batch.
 */
const indexes = new WeakMap<readonly TranscriptMessage[], MessageIndex>();

export class TranscriptDraft {
  readonly t: Transcript;
  private ownMessages = false;
  private ownTurns = false;
  private ownCalls = false;
  private ownNotices = false;
  private ownArtifacts = false;
  private index: MessageIndex | null;
  /** Searches of the whole list so far: one event needs one or two, a batch builds an index. */
  private scans = 0;

  constructor(base: Transcript) {
    this.t = { ...base };
    this.index = indexes.get(base.messages) ?? null;
    // Taken: only this draft's list matches it from now on.
    indexes.delete(base.messages);
  }

  /** The folded transcript; the draft is not to be used after this. */
  finish(): Transcript {
    if (this.index) indexes.set(this.t.messages, this.index);
    return this.t;
  }

  has(id: string): boolean {
    return this.find(id) >= 0;
  }

  /** Replaces message `id` by what `fn` makes of it (nothing when there is no such message). */
  edit(id: string, fn: (m: TranscriptMessage) => TranscriptMessage): void {
    const at = this.find(id);
    if (at >= 0) this.replace(at, fn(this.t.messages[at]!));
  }

  /** Inserts a message in its place by `order`, after any message of the same order. */
  insert(m: TranscriptMessage): void {
    const messages = this.messages();
    let at = messages.length;
    while (at > 0 && messages[at - 1]!.order > m.order) at--;
    messages.splice(at, 0, m);
    if (!this.index) return;
    for (let i = at; i < messages.length; i++) this.index.at.set(messages[i]!.id, i);
    if (m.status === "streaming") this.index.streaming.add(m.id);
  }

  /** Gives every message still streaming the status its turn ended with. */
  endStreaming(status: TranscriptMessage["status"]): void {
    if (!this.index && this.scans++ > 0) this.buildIndex();
    const ids = this.index
      ? [...this.index.streaming]
      : this.t.messages.filter((m) => m.status === "streaming").map((m) => m.id);
    for (const id of ids) this.edit(id, (m) => ({ ...m, status }));
  }

  setTurnMessage(turnId: string, messageId: string): void {
    this.ownTurnMessages()[turnId] = messageId;
  }

  setCallMessage(callId: string, messageId: string): void {
    this.ownCallMessages()[callId] = messageId;
  }

  /**
   * Forgets which answer an ended turn and its tool calls belong to: no event names them after
   * the turn's end, and lookups that grew with every turn ever made cost a copy per batch.
   */
  forgetTurn(turnId: string): void {
    const messageId = this.t.turnMessages[turnId];
    if (messageId === undefined) return;
    delete this.ownTurnMessages()[turnId];
    const calls = Object.keys(this.t.callMessages).filter(
      (callId) => this.t.callMessages[callId] === messageId,
    );
    if (calls.length === 0) return;
    const own = this.ownCallMessages();
    for (const callId of calls) delete own[callId];
  }

  addNotice(notice: Transcript["notices"][number]): void {
    if (!this.ownNotices) this.t.notices = [...this.t.notices];
    this.ownNotices = true;
    this.t.notices.push(notice);
  }

  setArtifact(now: ArtifactNow): void {
    if (!this.ownArtifacts) this.t.artifacts = { ...this.t.artifacts };
    this.ownArtifacts = true;
    this.t.artifacts![now.artifactId] = now;
  }

  /** Replaces each message `fn` changes (it returns the message itself when it changes none). */
  editAll(fn: (m: TranscriptMessage) => TranscriptMessage): void {
    this.t.messages.forEach((m, at) => {
      const next = fn(m);
      if (next !== m) this.replace(at, next);
    });
  }

  private ownTurnMessages(): Record<string, string> {
    if (!this.ownTurns) this.t.turnMessages = { ...this.t.turnMessages };
    this.ownTurns = true;
    return this.t.turnMessages;
  }

  private ownCallMessages(): Record<string, string> {
    if (!this.ownCalls) this.t.callMessages = { ...this.t.callMessages };
    this.ownCalls = true;
    return this.t.callMessages;
  }

  private messages(): TranscriptMessage[] {
    if (!this.ownMessages) this.t.messages = [...this.t.messages];
    this.ownMessages = true;
    return this.t.messages;
  }

  private replace(at: number, m: TranscriptMessage): void {
    this.messages()[at] = m;
    if (m.status === "streaming") this.index?.streaming.add(m.id);
    else this.index?.streaming.delete(m.id);
  }

  private find(id: string): number {
    if (this.index) return this.index.at.get(id) ?? -1;
    const messages = this.t.messages;
    // Events nearly always concern the newest messages.
    const tail = Math.max(0, messages.length - SCAN_FROM_END);
    for (let i = messages.length - 1; i >= tail; i--) if (messages[i]!.id === id) return i;
    if (tail === 0) return -1;
    if (this.scans++ === 0) {
      for (let i = tail - 1; i >= 0; i--) if (messages[i]!.id === id) return i;
      return -1;
    }
    this.buildIndex();
    return this.index!.at.get(id) ?? -1;
  }

  private buildIndex(): void {
    const index: MessageIndex = { at: new Map(), streaming: new Set() };
    this.t.messages.forEach((m, i) => {
      index.at.set(m.id, i);
      if (m.status === "streaming") index.streaming.add(m.id);
    });
    this.index = index;
  }
}
