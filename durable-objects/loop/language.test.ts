import { describe, expect, it } from "vitest";
import { detectLanguage, languageInstruction } from "./language";

describe("language parity", () => {
  it.each([
    ["Bonjour, pouvez-vous m'expliquer comment fonctionne la photosynthèse ?", "French"],
    ["Kannst du mir bitte erklären, wie die Photosynthese funktioniert?", "German"],
    ["¿Puedes explicarme cómo funciona la fotosíntesis en las plantas?", "Spanish"],
    ["Can you explain how photosynthesis works in plants?", "English"],
    ["Объясни, пожалуйста, как работает фотосинтез у растений.", "Russian"],
    ["光合作用是如何进行的？", "Chinese"],
    ["光合成はどのように働きますか？", "Japanese"],
  ])("detects %s as %s", (text, name) => {
    expect(detectLanguage(text)?.name).toBe(name);
  });

  it("gives a French message the French instruction", () => {
    const prompt = languageInstruction("Quels sont les effets secondaires de la metformine ?");
    expect(prompt).toContain("The user's latest message is in French");
    expect(prompt).toContain("Réponds en français.");
  });

  it("falls back to the general rule when a message is too short to tell", () => {
    expect(languageInstruction("ok")).toContain("in the language of the user's latest message");
  });
});
