// The tools of this suite, from its tools.json.
import { stubTools } from "../stub-tools.mjs";

export const tools = stubTools(new URL("./tools.json", import.meta.url));
