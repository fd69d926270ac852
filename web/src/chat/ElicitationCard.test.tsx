// @vitest-environment jsdom
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import type { ElicitationAnswer } from "../../../durable-objects/protocol/elicitation";
import type { ElicitationView } from "../../../durable-objects/protocol/transcript";
import { ElicitationCard } from "./ElicitationCard";
import { type Answerer, answererOf } from "../sharing/answerer";
import { typeInto } from "../ui/type-into";

let root: Root;
let host: HTMLElement;

function show(
  elicitation: ElicitationView,
  onAnswer = vi.fn(() => true as boolean | undefined),
  answerer?: Answerer,
) {
  ({ host, root } = mountInPage());
  act(() =>
    root.render(
      <ElicitationCard
        elicitation={elicitation}
        onAnswer={onAnswer}
        {...(answerer && { answerer })}
      />,
    ),
  );
  return onAnswer as unknown as ReturnType<
    typeof vi.fn<(id: string, a: ElicitationAnswer) => boolean | undefined>
  >;
}

const input = (label: string) => {
  const el = [...host.querySelectorAll("label")].find((l) =>
    l.textContent?.trim().startsWith(label),
  );
  const field =
    el?.querySelector("input, select") ?? (el?.htmlFor && host.querySelector(`#${el.htmlFor}`));
  if (!field) throw new Error(`no field labelled ${label}`);
  return field as HTMLInputElement | HTMLSelectElement;
};
const button = (text: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === text)!;

const type = typeInto;

const form: ElicitationView = {
  elicitationId: "el-1",
  callId: "c1",
  server: "everything",
  tool: "trigger-elicitation-request",
  mode: "form",
  message: "Please provide inputs for the following fields:",
  expiresAt: Date.UTC(2030, 0, 1),
  requestedSchema: {
    type: "object",
    required: ["name", "hero"],
    properties: {
      name: { type: "string", title: "Name", minLength: 2, maxLength: 40 },
      email: { type: "string", title: "Email", format: "email" },
      birthdate: { type: "string", title: "Birthdate", format: "date" },
      age: { type: "integer", title: "Age", minimum: 1, maximum: 120, default: 42 },
      agree: { type: "boolean", title: "Agree", description: "to the terms" },
      hero: {
        type: "string",
        title: "Hero",
        oneOf: [
          { const: "hero-1", title: "Superman" },
          { const: "hero-3", title: "Wonder Woman" },
        ],
      },
      pet: {
        type: "string",
        title: "Pet",
        enum: ["pet-1", "pet-2"],
        enumNames: ["Cats", "Dogs"],
      },
      fish: {
        type: "array",
        title: "Fish",
        minItems: 1,
        items: {
          anyOf: [
            { const: "fish-1", title: "Tuna" },
            { const: "fish-2", title: "Salmon" },
          ],
        },
      },
    },
  },
};

describe("the elicitation card", () => {
  it("builds the form from the schema: input kinds, bounds, titled choices, defaults, required marks", () => {
    show(form);
    expect(host.textContent).toContain("trigger-elicitation-request asks:");
    expect(host.textContent).toContain("Please provide inputs for the following fields:");
    const name = input("Name") as HTMLInputElement;
    expect(name.type).toBe("text");
    expect(name.required).toBe(true);
    expect(name.minLength).toBe(2);
    expect(name.maxLength).toBe(40);
    expect((input("Email") as HTMLInputElement).type).toBe("email");
    expect((input("Birthdate") as HTMLInputElement).type).toBe("date");
    const age = input("Age") as HTMLInputElement;
    expect([age.type, age.min, age.max, age.value]).toEqual(["number", "1", "120", "42"]);
    expect((input("Agree") as HTMLInputElement).type).toBe("checkbox");
    expect(host.textContent).toContain("to the terms");
    const hero = input("Hero") as HTMLSelectElement;
    expect([...hero.options].map((o) => o.textContent)).toEqual([
      "Choose…",
      "Superman",
      "Wonder Woman",
    ]);
    expect([...(input("Pet") as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      "(none)",
      "Cats",
      "Dogs",
    ]);
    expect(host.querySelector("fieldset legend")?.textContent).toBe("Fish");
    expect(host.querySelectorAll("fieldset input[type=checkbox]")).toHaveLength(2);
    expect(host.querySelector('label[for="elicit-name"]')?.textContent).toContain("*");
    for (const b of ["Accept", "Decline", "Cancel"]) expect(button(b)).toBeDefined();
  });

  it("Accept checks the values first and names what is wrong; a valid form sends typed content", () => {
    const onAnswer = show(form);
    type(input("Name"), "A");
    type(input("Email"), "not an email");
    type(input("Age"), "500");
    act(() => button("Accept").click());
    expect(onAnswer).not.toHaveBeenCalled();
    const problems = host.querySelector('[role="alert"]')!.textContent!;
    expect(problems).toContain("Name:");
    expect(problems).toContain("Email: Enter an email address.");
    expect(problems).toContain("Age:");
    expect(problems).toContain("Hero: required");
    expect(problems).toContain("Fish:");

    type(input("Name"), "Ada Lovelace");
    type(input("Email"), "ada@example.com");
    type(input("Age"), "36");
    type(input("Hero"), "hero-3");
    act(() => (input("Agree") as HTMLInputElement).click());
    act(() => (host.querySelector("fieldset input[type=checkbox]") as HTMLInputElement).click());
    act(() => button("Accept").click());
    expect(onAnswer).toHaveBeenCalledWith("el-1", {
      action: "accept",
      content: {
        name: "Ada Lovelace",
        email: "ada@example.com",
        age: 36,
        agree: true,
        hero: "hero-3",
        fish: ["fish-1"],
      },
    });
    expect(host.querySelector('[role="alert"]')).toBeNull();
    // Sent: the buttons wait for the answer to come back as an event.
    expect(button("Decline").disabled).toBe(true);
  });

  it("Decline and Cancel send no content", () => {
    const onAnswer = show(form);
    act(() => button("Decline").click());
    expect(onAnswer).toHaveBeenLastCalledWith("el-1", { action: "decline" });
    act(() => root.unmount());
    const again = show(form);
    act(() => button("Cancel").click());
    expect(again).toHaveBeenLastCalledWith("el-1", { action: "cancel" });
  });

  it("an answer that could not be sent (offline) leaves the buttons usable", () => {
    show(
      form,
      vi.fn(() => false),
    );
    act(() => button("Decline").click());
    expect(button("Decline").disabled).toBe(false);
  });

  it("once answered anywhere it shows how, without a form or buttons", () => {
    show({ ...form, answered: { action: "accept", via: "rest", at: 0, content: { name: "Ada" } } });
    expect(host.querySelector("form")).toBeNull();
    expect(host.querySelector("button")).toBeNull();
    expect(host.querySelector('[role="status"]')?.textContent).toMatch(/^Answered by you \(API,/);
    act(() => root.unmount());
    show({ ...form, answered: { action: "cancel", via: "timeout", at: 0 } });
    expect(host.textContent).toContain("Nobody answered in time");
  });

  it("in a shared conversation it names who answered, and shows a viewer no form", () => {
    const as = (role: "owner" | "viewer") =>
      answererOf({ role, me: "u-me", shared: true, names: [["u-bo", "bo"]] });
    show(
      { ...form, answered: { action: "decline", via: "websocket", userId: "u-bo", at: 0 } },
      undefined,
      as("owner"),
    );
    expect(host.querySelector('[role="status"]')?.textContent).toMatch(/^Declined by bo \(app,/);
    act(() => root.unmount());
    show(form, undefined, as("viewer"));
    expect(host.querySelector("form")).toBeNull();
    expect(host.querySelector("button")).toBeNull();
    expect(host.textContent).toContain("as a viewer you cannot");
  });

  const link: ElicitationView = {
    elicitationId: "el-1",
    callId: "c1",
    server: "everything",
    tool: "trigger-url-elicitation",
    mode: "url",
    message: "Please sign in to continue.",
    url: "https://login.example.com/flow?x=1",
    expiresAt: Date.UTC(2030, 0, 1),
  };

  it("a link question sets the host apart, opens the page in a new tab, and Done accepts without content", () => {
    const onAnswer = show(link);
    expect(host.querySelector(".elicitation-host")?.textContent).toBe("login.example.com");
    const open = host.querySelector("a")!;
    expect(open.textContent).toBe("Open");
    expect(open.href).toBe("https://login.example.com/flow?x=1");
    expect(open.target).toBe("_blank");
    expect(open.rel).toBe("noopener noreferrer");
    act(() => button("Done").click());
    expect(onAnswer).toHaveBeenCalledWith("el-1", { action: "accept" });
  });

  it("a link that is not http(s) is never offered", () => {
    show({ ...link, url: "javascript:alert(1)" });
    expect(host.querySelector("a")).toBeNull();
    expect(host.querySelector("button")).toBeNull();
    expect(host.textContent).toContain("cannot be opened");
  });

  it("a start link, which would sign the user in as someone else, is never offered", () => {
    show({ ...link, url: `${location.origin}/#token=tc_someone_else` });
    expect(host.querySelector("a")).toBeNull();
    expect(host.textContent).toContain("cannot be opened");
  });
});

describe("the focus after answering", () => {
  it("stays on the card, which then says how it was answered, not on a removed button", () => {
    show(form);
    const decline = button("Decline");
    decline.focus();
    act(() => decline.click());
    expect(document.activeElement).toBe(host.querySelector('[data-testid="elicitation-card"]'));
  });
});
