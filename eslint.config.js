import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules",
      "**/.wrangler",
      "**/dist",
      "migrations",
      "test-results",
      "**/*.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
    },
  },
  {
    // Imports run workers/ → shared/ ← durable-objects/: the Durable Object and shared code never
    // reach into a worker (see shared/README.md).
    files: ["durable-objects/**", "shared/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/workers/**"],
              message:
                "durable-objects/ and shared/ must not import workers/: move the code both need to shared/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["scripts/**/*.mjs", ".ci/**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        fetch: "readonly",
      },
    },
  },
);
