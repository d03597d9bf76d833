// Which of the MCP conformance suite's server scenarios (@modelcontextprotocol/conformance 0.1.16,
// its active suite) say something about planloop, and why the others do not. A scenario not
// named here applies: a new one in a newer suite is counted, never left out unseen.

/** The two faces the suite reads: `/mcp` on `planloop serve`, and `planloop mcp` behind a stdio bridge. */
export type Target = "serve" | "stdio";

const referenceTool = (tool: string) =>
  `calls the reference server's own tool ${tool}; planloop serves the user's tools and its run tools, not the suite's fixtures`;
const noCapability = (what: string) => `planloop offers no ${what} (it does not declare the capability; the suite asks regardless)`;

/** Why a scenario says nothing about planloop, by scenario; per target where the two differ. */
export const notApplicable: Record<string, string | Partial<Record<Target, string>>> = {
  "logging-set-level": noCapability("logging"),
  "completion-complete": noCapability("completions"),
  "tools-call-simple-text": referenceTool("test_simple_text"),
  "tools-call-image": referenceTool("test_image_content"),
  "tools-call-audio": referenceTool("test_audio_content"),
  "tools-call-embedded-resource": referenceTool("test_embedded_resource"),
  "tools-call-mixed-content": referenceTool("test_multiple_content_types"),
  "tools-call-with-logging": referenceTool("test_tool_with_logging"),
  "tools-call-error": referenceTool("test_error_handling"),
  "tools-call-with-progress": referenceTool("test_tool_with_progress"),
  "tools-call-sampling": referenceTool("test_sampling"),
  "tools-call-elicitation": referenceTool("test_elicitation"),
  "elicitation-sep1034-defaults": referenceTool("test_elicitation_sep1034_defaults"),
  "elicitation-sep1330-enums": referenceTool("test_elicitation_sep1330_enums"),
  "resources-list": noCapability("resources"),
  "resources-read-text": noCapability("resources"),
  "resources-read-binary": noCapability("resources"),
  "resources-templates-read": noCapability("resources"),
  "resources-subscribe": noCapability("resources"),
  "resources-unsubscribe": noCapability("resources"),
  "prompts-list": noCapability("prompts"),
  "prompts-get-simple": noCapability("prompts"),
  "prompts-get-with-args": noCapability("prompts"),
  "prompts-get-embedded-resource": noCapability("prompts"),
  "prompts-get-with-image": noCapability("prompts"),
  "server-sse-multiple-streams": {
    serve: "needs a session (resumable streams, SEP-1699); /mcp is stateless by design: each request gets a server of its own",
    stdio: "reads the HTTP bridge's transport, not planloop mcp (stdio has one stream)",
  },
  "server-sse-polling": {
    serve: "needs a session (resumable streams, SEP-1699); /mcp is stateless by design",
    stdio: "reads the HTTP bridge's transport, not planloop mcp",
  },
  "dns-rebinding-protection": { stdio: "an HTTP transport's check; planloop mcp speaks stdio, with no Host or Origin" },
};

/** Why the scenario does not apply to the target, or undefined where it does. */
export function whyNotApplicable(scenario: string, target: Target): string | undefined {
  const reason = notApplicable[scenario];
  return typeof reason === "string" ? reason : reason?.[target];
}
