import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { countedSql } from "../../tests/support/counted-sql";
import type { Conversation } from "./conversation";
import { MessageAuthors } from "./message-authors";

it("the authors are read once, then kept as stored: a new author is added, a message's first stays", async () => {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (instance: Conversation, state) => {
    let reads = 0;
    const sql = countedSql(instance.store.sql, (query) => {
      if (/FROM conv_message_authors/.test(query)) reads++;
    });
    const authors = new MessageAuthors(sql);
    authors.remember("m1", { id: "u1", name: "Ana" });
    expect([...authors.all()]).toEqual([["m1", { id: "u1", name: "Ana" }]]);

    // Every turn asks again: no second read, and what is stored since is there.
    authors.remember("m3", { id: "u2", name: "Bo" });
    authors.remember("m1", { id: "u2", name: "Bo" });
    expect(authors.all()).toEqual(new MessageAuthors(state.storage.sql).all());
    expect(authors.all().get("m1")).toEqual({ id: "u1", name: "Ana" });
    expect(authors.all().get("m3")).toEqual({ id: "u2", name: "Bo" });
    expect(reads).toBe(1);
  });
});
