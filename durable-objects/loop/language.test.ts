import { describe, expect, it, vi } from "vitest";

// Records when the trigram profiles are loaded: they are indexed then, which must not happen at
// start-up.
const loads = vi.hoisted(() => ({ trigrams: 0 }));
vi.mock("./trigram-language", async (original) => {
  loads.trigrams++;
  return original();
});

const { detectLanguage, languageInstruction } = await import("./language");

describe("language parity", () => {
  it("loads the trigram profiles only when a message needs its trigrams", async () => {
    expect(loads.trigrams).toBe(0);
    // A short message decided by its script or its function words needs no trigrams.
    expect((await detectLanguage("光合作用是如何进行的？"))?.name).toBe("Chinese");
    expect((await detectLanguage("What is the dose of the drug?"))?.name).toBe("English");
    expect(loads.trigrams).toBe(0);
    // A long one is decided by trigrams.
    const long = "Kannst du mir bitte erklären, wie die Photosynthese in Pflanzen funktioniert? ";
    expect((await detectLanguage(long.repeat(4)))?.name).toBe("German");
    expect(loads.trigrams).toBe(1);
  });

  it.each([
    ["Bonjour, pouvez-vous m'expliquer comment fonctionne la photosynthèse ?", "French"],
    ["Kannst du mir bitte erklären, wie die Photosynthese funktioniert?", "German"],
    ["¿Puedes explicarme cómo funciona la fotosíntesis en las plantas?", "Spanish"],
    ["Can you explain how photosynthesis works in plants?", "English"],
    ["Объясни, пожалуйста, как работает фотосинтез у растений.", "Russian"],
    ["光合作用是如何进行的？", "Chinese"],
    ["光合成はどのように働きますか？", "Japanese"],
    ["Puoi spiegarmi come funziona la fotosintesi nelle piante?", "Italian"],
    ["Quais são os efeitos colaterais da metformina e devo tomá-la com comida?", "Portuguese"],
    ["Kun je me uitleggen hoe fotosynthese werkt bij planten?", "Dutch"],
    ["Czy możesz mi wyjaśnić, jak działa fotosynteza w roślinach?", "Polish"],
    ["Metforminin yan etkileri nelerdir ve yemekle birlikte mi almalıyım?", "Turkish"],
    ["Kan du förklara hur fotosyntesen fungerar i växter?", "Swedish"],
    ["Apa efek samping metformin dan apakah saya harus meminumnya bersama makanan?", "Indonesian"],
    [
      "Bạn có thể giải thích quá trình quang hợp diễn ra như thế nào ở thực vật không?",
      "Vietnamese",
    ],
    ["Поясни, будь ласка, як працює фотосинтез у рослинах і чому листя зелене.", "Ukrainian"],
    ["Какие побочные эффекты у метформина и нужно ли принимать его во время еды?", "Russian"],
  ])("detects %s as %s", async (text, name) => {
    expect((await detectLanguage(text))?.name).toBe(name);
  });

  it("reads the words, not the letters inside an id, a hash or a code name next to them", async () => {
    // The hex runs of this id ("e", "a", "de") are function words of other languages.
    const id = "e0e1e2e3-e4e5-4e6e-8e7e-e8e9eaebeced";
    const question = "What do you know about the history of computing machines?";
    expect((await detectLanguage(`${question} template-marker-${id}`))?.name).toBe("English");
    expect((await detectLanguage(`${question} See commit 3e5a9d0e and run_e2e_v2.`))?.name).toBe(
      "English",
    );
  });

  it("gives a French message the French instruction", async () => {
    const prompt = languageInstruction(
      await detectLanguage("Quels sont les effets secondaires de la metformine ?"),
    );
    expect(prompt).toContain("The user's latest message is in French");
    expect(prompt).toContain("Réponds en français.");
  });

  it("tells none of its languages in a script it has no profiles for", async () => {
    expect(await detectLanguage("Μπορείς να μου εξηγήσεις πώς λειτουργεί η φωτοσύνθεση;")).toBe(
      null,
    );
  });

  it("falls back to the general rule when a message is too short to tell", async () => {
    expect(languageInstruction(await detectLanguage("ok"))).toContain(
      "in the language of the user's latest message",
    );
  });
});
