/** The shape of a tools module, as the `--tools` help of every command says it (kept apart: help loads no loader). */
export const toolsModuleShape =
  "a module exporting the tools (.js/.mjs, or .ts/.mts: stripped by Node 22.18+, through tsx on Node 20): `export const tools = [...]`, a default export of such an array, or tools made with defineTool as named exports";
