// `planloop ask` as a pipeline's gate (issue 55): an answer with a figure its steps do not
// support exits 4 and says so in its status line; --grounding chooses the policy.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../helpers/run-cli.js";
import { completion, startChatServer, type ChatServer } from "../helpers/chat-server.js";
import { testRoot } from "../helpers/paths.js";

const toolsModule = join(testRoot, "fixtures", "plan-tools.ts");
const plan = completion({ content: JSON.stringify({ steps: [{ id: 1, task: "double 21", tool: "double", args: { value: 21 } }] }) });
let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = (...flags: string[]) =>
  cli("ask", "What is twice 21?", "--tools", toolsModule, "--base-url", server!.baseURL, "--model", "m", "--no-store", ...flags);

describe("planloop ask --grounding", () => {
  it("exits 4 with the unsupported count in the status line when a completed answer has a wrong figure", async () => {
    server = await startChatServer([plan, completion({ content: "Twice 21 is 43 [s1]." })]);
    const asked = await ask();
    expect(asked.code).toBe(4);
    expect(asked.out).toContain("plan-and-execute: completed, 1 of 2 claims unsupported —");
    expect(asked.out).toContain("✗ 43: not in s1, nor in any other step");
  });

  it("exits 0 for a supported answer, and with --grounding off checks nothing", async () => {
    server = await startChatServer([plan, completion({ content: "Twice 21 is 42 [s1]." })]);
    expect((await ask()).code).toBe(0);
    server = await startChatServer([plan, completion({ content: "Twice 21 is 43 [s1]." })]);
    const unchecked = await ask("--grounding", "off");
    expect(unchecked.code).toBe(0);
    expect(unchecked.out).not.toContain("unsupported");
  });

  it("--grounding strict takes the unsupported sentence out, and a run left with no claim ends incomplete (exit 1)", async () => {
    server = await startChatServer([
      plan,
      completion({ content: "Twice 21 is 43 [s1]." }),
      completion({ content: "Twice 21 is 44 [s1]." }),
    ]);
    const asked = await ask("--grounding", "strict");
    expect(asked.code).toBe(1);
    expect(asked.out).toContain("plan-and-execute: incomplete");
    expect((await ask("--grounding", "sometimes")).err).toContain("sometimes");
  });
});
