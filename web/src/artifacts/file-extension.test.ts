import { describe, expect, it } from "vitest";
import { kindOf, typeLabel } from "./artifact-kind";
import { extensionFor, fileNameFor } from "./file-extension";

describe("a downloaded piece of code", () => {
  it("gets the extension of its language", () => {
    const cases: [string | null, string][] = [
      ["python", "py"],
      ["Python", "py"],
      ["typescript", "ts"],
      ["javascript", "js"],
      ["json", "json"],
      ["sql", "sql"],
      ["r", "r"],
      ["R", "r"],
      ["sh", "sh"],
      ["bash", "sh"],
      ["html", "html"],
      ["css", "css"],
      ["rust", "rs"],
      ["go", "go"],
      ["java", "java"],
      ["c", "c"],
      ["cpp", "cpp"],
      ["c++", "cpp"],
      ["klingon", "txt"],
      [null, "txt"],
    ];
    for (const [language, ext] of cases)
      expect([language, extensionFor(language)]).toEqual([language, ext]);
  });

  it("is named after its title, without characters a file system refuses", () => {
    expect(fileNameFor("Fit a model / v2", "py")).toBe("Fit_a_model_v2.py");
    expect(fileNameFor("analysis.py", "py")).toBe("analysis.py");
    expect(fileNameFor("../../etc/passwd", "txt")).toBe("etc_passwd.txt");
    expect(fileNameFor("???", "sql")).toBe("artifact.sql");
  });

  it("keeps a title written in another script instead of falling back to 'artifact'", () => {
    expect(fileNameFor("Анализ данных", "py")).toBe("Анализ_данных.py");
    expect(fileNameFor("数据分析", "csv")).toBe("数据分析.csv");
    expect(fileNameFor("Über Café", "md")).toBe("Über_Café.md");
    expect(fileNameFor("x".repeat(79) + "_tail", "txt")).toBe("x".repeat(79) + ".txt");
  });
});

describe("an artifact's type", () => {
  it("picks a viewer, also from the spellings models use", () => {
    expect(kindOf("application/vnd.ant.code")).toBe("code");
    expect(kindOf("application/vnd.ant.python")).toBe("code");
    expect(kindOf("text/markdown")).toBe("markdown");
    expect(kindOf("application/vnd.knowledge-graph")).toBe("knowledge-graph");
    expect(kindOf("application/vnd.bibliography")).toBe("bibliography");
    expect(kindOf("image/png")).toBe("image");
    expect(kindOf("image/svg+xml")).toBe("image");
    expect(kindOf("application/json")).toBe("json");
    expect(kindOf("text/csv")).toBe("text");
  });

  it("has a short label for the list", () => {
    expect(typeLabel("application/vnd.ant.code", "python")).toBe("Code · python");
    expect(typeLabel("image/svg+xml")).toBe("Image · svg");
    expect(typeLabel("application/vnd.knowledge-graph")).toBe("Knowledge graph");
  });
});
