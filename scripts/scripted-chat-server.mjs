// A Chat Completions server on 127.0.0.1 for scripts/fresh-clone.sh: it asks for the first tool
// it is offered with { "value": 21 }, then answers with what the tool returned. Prints its URL.
import { createServer } from "node:http";

const server = createServer(async (request, response) => {
  let body = "";
  for await (const chunk of request) body += chunk;
  const { messages = [], tools = [] } = JSON.parse(body || "{}");
  const last = messages.at(-1);
  const message =
    last?.role === "tool" || tools.length === 0
      ? { role: "assistant", content: `The answer is ${last?.content ?? "unknown"}.` }
      : {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: tools[0].function.name, arguments: '{"value":21}' } }],
        };
  const finish = message.tool_calls ? "tool_calls" : "stop";
  response.writeHead(200, { "content-type": "application/json" });
  response.end(
    JSON.stringify({ choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 20, completion_tokens: 5 } }),
  );
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}/v1`));
