import { isRecord } from "../is-record.js";

/** "field: message; other.field: missing (required)". */
export function describeIssueList(
  issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<unknown>; code?: string }>,
  whole = "arguments",
): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((part) => String(isRecord(part) ? (part as { key: unknown }).key : part));
      const field = path.length > 0 ? path.join(".") : whole;
      const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
      return missing ? `${field}: missing (required)` : `${field}: ${issue.message}`;
    })
    .join("; ");
}
