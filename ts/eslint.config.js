// ESLint over the hand-written TypeScript and JavaScript (make lint, ts/lang.mk lint-ts):
// the recommended rules of ESLint and typescript-eslint, with two settings that follow the
// code's conventions; tsc --strict (tsconfig.json) checks the types.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**"] },
  js.configs.recommended,
  { files: ["**/*.ts"], extends: [tseslint.configs.recommended] },
  { files: ["**/*.mjs", "**/*.js"], languageOptions: { globals: { ...globals.node } } },
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs", globals: { ...globals.node } } },
  // the page itself, and the callbacks the browser test hands to page.evaluate
  { files: ["test/browser/**", "test/browser.test.mjs"], languageOptions: { globals: { ...globals.browser } } },
  {
    rules: {
      // `let [a, b] = ...` where only one of them is reassigned stays one declaration
      "prefer-const": ["error", { destructuring: "all" }],
    },
  },
  {
    files: ["**/*.ts"],
    rules: {
      // an overriding method names the parameters it ignores with a leading underscore
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
);
