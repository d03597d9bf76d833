/** The shape of a tools module, as the `--tools` help of every command says it (kept apart: help loads no loader). */
export const toolsModuleShape =
  "a module exporting the tools (.js/.mjs; .ts where Node strips types): `export const tools = [...]`, a default export of such an array, or tools made with defineTool as named exports";
