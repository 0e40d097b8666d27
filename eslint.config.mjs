// The site's own scripts (static/js): plain browser scripts, each wrapped in its own function, on
// the browser's and htmx's public APIs. Vendored files (static/vendor) are linted where they come from.
import js from "@eslint/js";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: {
        window: "readonly", document: "readonly", navigator: "readonly", location: "readonly",
        localStorage: "readonly", performance: "readonly", console: "readonly",
        setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly",
        fetch: "readonly", Promise: "readonly", queueMicrotask: "readonly", URLSearchParams: "readonly", FormData: "readonly",
        CustomEvent: "readonly", Event: "readonly", WebSocket: "readonly", AbortController: "readonly",
        Notification: "readonly", atob: "readonly", crypto: "readonly", TextEncoder: "readonly",
        htmx: "readonly", Idiomorph: "readonly",
      },
    },
    rules: {
      "no-unused-vars": ["error", { caughtErrors: "none" }],
      "no-implicit-globals": "error",
      eqeqeq: ["error", "always"],
      "max-lines": ["error", { max: 200 }],
    },
  },
];
