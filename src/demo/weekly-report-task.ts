import type { OfflineTask } from "../offline/offline-task.js";
import { demoWeek } from "./demo-data.js";

const week = `${demoWeek.start} to ${demoWeek.end}`;
const during = `created_at BETWEEN '${demoWeek.start}' AND '${demoWeek.end} 23:59:59'`;

/** What the demo asks for. */
export const weeklyReportTaskText = `Write the weekly report for ${week} from the shop database: order count and revenue, refunds and the refund rate (in CNY), and support tickets with the most common complaint.`;

const orders = {
  id: 1,
  task: "query this week's orders",
  tool: "sql",
  args: { query: `SELECT id, total_cny FROM orders WHERE ${during}` },
};
const tickets = {
  id: 3,
  task: "query this week's support tickets",
  tool: "sql",
  args: { query: `SELECT id, category FROM tickets WHERE ${during}` },
};
const report = { id: 5, task: "write the weekly report", tool: "write_report", args: { metrics: "$4", week }, depends_on: [4] };
const schema = { id: 6, task: "read the refunds table's columns", tool: "describe_table", args: { table: "refunds" } };
const refunds = {
  id: 2,
  task: "query this week's refunds with the renamed amount column",
  tool: "sql",
  args: { query: `SELECT id, refund_amount, currency FROM refunds WHERE ${during}` },
  depends_on: [6],
};

/**
 * The demo as the offline model solves it (seed 001 §5): the first plan queries a refunds
 * column that was renamed; the replan reads the schema and queries the new column; the
 * refunds turn out to include USD, so the next plan adds a conversion before the metrics.
 */
export const weeklyReportTask: OfflineTask = {
  name: "weekly report",
  match: /weekly report for 2026-11-16 to 2026-11-22/,
  plan: [
    orders,
    { id: 2, task: "query this week's refunds", tool: "sql", args: { query: `SELECT id, amount, currency FROM refunds WHERE ${during}` } },
    tickets,
    {
      id: 4,
      task: "compute the metrics",
      tool: "compute_metrics",
      args: { orders: "$1", refunds: "$2", tickets: "$3" },
      depends_on: [1, 2, 3],
    },
    report,
  ],
  replan: (problem) => {
    if (/USD|not (in )?CNY/.test(problem)) {
      return [
        orders,
        schema,
        refunds,
        tickets,
        {
          id: 7,
          task: "convert the USD refunds to CNY",
          tool: "convert_currency",
          args: { rows: "$2", amount_field: "refund_amount", currency_field: "currency", to: "CNY" },
          depends_on: [2],
        },
        {
          id: 4,
          task: "compute the metrics",
          tool: "compute_metrics",
          args: { orders: "$1", refunds: "$7", tickets: "$3" },
          depends_on: [1, 7, 3],
        },
        report,
      ];
    }
    if (/no such column/.test(problem)) {
      return [
        orders,
        schema,
        refunds,
        tickets,
        {
          id: 4,
          task: "compute the metrics",
          tool: "compute_metrics",
          args: { orders: "$1", refunds: "$2", tickets: "$3" },
          depends_on: [1, 2, 3],
        },
        report,
      ];
    }
    return undefined;
  },
  answer: (outputs) => {
    const written = outputs["5"] as { markdown?: unknown } | undefined;
    if (typeof written?.markdown !== "string") throw new Error("the report was not written");
    return citeMetrics(written.markdown);
  },
};

/**
 * The report as a solver that cites its sources writes it: every line with a figure but the
 * title (whose dates are the task's) cites the metrics step, `[s4]`.
 */
export function citeMetrics(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) => {
      if (!/\d/.test(line) || line.startsWith("#")) return line;
      if (line.startsWith("|")) return line.replace(/\s*\|\s*$/, " [s4] |");
      return line.endsWith(".") ? `${line.slice(0, -1)} [s4].` : `${line} [s4]`;
    })
    .join("\n");
}

const headline = {
  id: 8,
  task: "write the report's one-line headline on customer complaints",
  model: "fast",
  depends_on: [4],
};

/**
 * The weekly report with a step for a cheaper model (seed 001 §5: plan with a strong model,
 * do simple steps with a cheap one): an agent step on the "fast" tier writes the headline
 * from the metrics, and the report step uses it. `planloop demo` runs this one.
 */
export const tieredWeeklyReportTask: OfflineTask = {
  ...weeklyReportTask,
  name: "weekly report (model tiers)",
  plan: withHeadline(weeklyReportTask.plan),
  replan: (problem) => {
    const steps = weeklyReportTask.replan?.(problem);
    return steps === undefined ? undefined : withHeadline(steps);
  },
  agentSteps: [
    {
      match: /one-line headline on customer complaints/,
      answer: (prompt) => {
        const category = /"top_ticket_category":\s*"([^"]+)"/.exec(prompt)?.[1];
        const count = /"top_ticket_count":\s*(\d+)/.exec(prompt)?.[1];
        const total = /"tickets":\s*(\d+)/.exec(prompt)?.[1];
        if (category === undefined) return "Customer complaints could not be read from the metrics.";
        return `Customers complained most about ${category}: ${count} of ${total} tickets this week.`;
      },
    },
  ],
};

function withHeadline(steps: OfflineTask["plan"]): OfflineTask["plan"] {
  return steps.flatMap((step) =>
    step.id === report.id ? [headline, { ...report, args: { ...report.args, headline: "$8" }, depends_on: [4, 8] }] : [step],
  );
}
