// A report pipeline of any size, for benches that need a realistic large run: a fan-out of
// fetches that each return a JSON table (a week of one region's orders), joins of four
// fetches by day, summaries of four joins, and a final total; then an answer with a figure
// or three per join and summary, cited, a few uncited, a few wrong (so grounding has work:
// repair, cut). Deterministic: the tools' outputs follow from their arguments.
import { z } from "zod";
import { defineTool } from "../dist/index.js";

interface Day {
  day: string;
  orders: number;
  revenue_cny: number;
  refunds: number;
}
interface Joined {
  regions: string[];
  rows: Day[];
  totals: { orders: number; revenue_cny: number; refunds: number };
}
interface Summary {
  group: string;
  orders: number;
  revenue_cny: number;
  refund_rate_pct: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const days = Array.from({ length: 7 }, (_, index) => `2026-03-${String(index + 9).padStart(2, "0")}`);

/** A region's week, the same every time for the same region. */
function regionWeek(region: number): { region: string; week: string; rows: Array<Day & { region: string }> } {
  let seed = region * 2_654_435_761;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const rows = days.map((day) => {
    const orders = 20 + Math.floor(next() * 180);
    return { day, region: `R${region}`, orders, revenue_cny: round2(orders * (80 + next() * 400)), refunds: Math.floor(next() * 9) };
  });
  return { region: `R${region}`, week: "2026-W11", rows };
}

function joinByDay(tables: ReadonlyArray<{ region: string; rows: Day[] }>): Joined {
  const rows = days.map((day) => {
    const same = tables.flatMap((table) => table.rows.filter((row) => row.day === day));
    const sum = (key: "orders" | "revenue_cny" | "refunds") => round2(same.reduce((total, row) => total + row[key], 0));
    return { day, orders: sum("orders"), revenue_cny: sum("revenue_cny"), refunds: sum("refunds") };
  });
  const total = (key: "orders" | "revenue_cny" | "refunds") => round2(rows.reduce((sum, row) => sum + row[key], 0));
  return {
    regions: tables.map((table) => table.region),
    rows,
    totals: { orders: total("orders"), revenue_cny: total("revenue_cny"), refunds: total("refunds") },
  };
}

function summarize(group: string, joins: readonly Joined[]): Summary {
  const orders = joins.reduce((total, join) => total + join.totals.orders, 0);
  const refunds = joins.reduce((total, join) => total + join.totals.refunds, 0);
  const revenue = round2(joins.reduce((total, join) => total + join.totals.revenue_cny, 0));
  return { group, orders, revenue_cny: revenue, refund_rate_pct: round2((refunds / orders) * 100) };
}

const table = z.object({ region: z.string(), rows: z.array(z.any()) });
const joined = z.object({ regions: z.array(z.string()), rows: z.array(z.any()), totals: z.any() });
/** Answers on a later turn, as a tool that waits on I/O would. */
const later = <Value>(value: Value) => new Promise<Value>((resolve) => setImmediate(() => resolve(value)));

export const pipelineTools = [
  defineTool({
    name: "fetch_orders",
    description: "One region's orders of a week, a row per day",
    input: z.object({ region: z.number(), week: z.string() }),
    execute: ({ region }) => later(regionWeek(region)),
  }),
  defineTool({
    name: "join_by_day",
    description: "Join regions' tables by day, with totals",
    input: z.object({ tables: z.array(table) }),
    execute: ({ tables }) => later(joinByDay(tables as Array<{ region: string; rows: Day[] }>)),
  }),
  defineTool({
    name: "summarize_group",
    description: "Orders, revenue and refund rate of a group of joins",
    input: z.object({ group: z.string(), joins: z.array(joined) }),
    execute: ({ group, joins }) => later(summarize(group, joins as Joined[])),
  }),
  defineTool({
    name: "total",
    description: "The week's totals over the groups",
    input: z.object({ groups: z.array(z.any()) }),
    execute: ({ groups }) => {
      const all = groups as Summary[];
      return later({
        groups: all.length,
        orders: all.reduce((sum, group) => sum + group.orders, 0),
        revenue_cny: round2(all.reduce((sum, group) => sum + group.revenue_cny, 0)),
      });
    },
  }),
];

/** The shape of a plan of `size` steps: how many fetches, joins (of four fetches) and summaries (of four joins). */
function shape(size: number) {
  const summaries = Math.max(1, Math.floor((size - 1) / 21));
  const joins = summaries * 4;
  return { fetches: size - 1 - joins - summaries, joins, summaries };
}

/** A JSON plan (as a planner would write it) of exactly `size` steps. */
export function pipelinePlan(size: number): { steps: Array<Record<string, unknown>> } {
  const { fetches, joins, summaries } = shape(size);
  const steps: Array<Record<string, unknown>> = [];
  for (let index = 1; index <= fetches; index += 1)
    steps.push({
      id: index,
      task: `Fetch region ${index}'s orders`,
      tool: "fetch_orders",
      args: { region: index, week: "2026-W11" },
      depends_on: [],
    });
  for (let join = 0; join < joins; join += 1) {
    const inputs = [0, 1, 2, 3].map((offset) => 1 + ((join * 4 + offset) % fetches));
    steps.push({
      id: fetches + 1 + join,
      task: `Join fetches ${inputs.join(", ")} by day`,
      tool: "join_by_day",
      args: { tables: inputs.map((id) => `\${${id}}`) },
      depends_on: inputs,
    });
  }
  for (let group = 0; group < summaries; group += 1) {
    const inputs = [0, 1, 2, 3].map((offset) => fetches + 1 + group * 4 + offset);
    steps.push({
      id: fetches + joins + 1 + group,
      task: `Summarize group ${group + 1}`,
      tool: "summarize_group",
      args: { group: `G${group + 1}`, joins: inputs.map((id) => `\${${id}}`) },
      depends_on: inputs,
    });
  }
  const groups = steps.slice(-summaries).map((step) => step.id as number);
  steps.push({ id: size, task: "Total the week", tool: "total", args: { groups: groups.map((id) => `\${${id}}`) }, depends_on: groups });
  return { steps };
}

const money = (value: number) => `¥${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const count = (value: number) => value.toLocaleString("en-US");

/**
 * The report a solver would write from the results of `pipelinePlan(size)`: a sentence per
 * join (orders, revenue, refunds) and per summary (orders, revenue, refund rate), cited; every
 * 50th sentence uncited; every 100th figure written wrong; and the week's total.
 */
export function pipelineAnswer(size: number): string {
  const { fetches, joins, summaries } = shape(size);
  const fetched = Array.from({ length: fetches }, (_, index) => regionWeek(index + 1));
  const joined = Array.from({ length: joins }, (_, join) =>
    joinByDay([0, 1, 2, 3].map((offset) => fetched[(join * 4 + offset) % fetches]!)),
  );
  const grouped = Array.from({ length: summaries }, (_, group) => summarize(`G${group + 1}`, joined.slice(group * 4, group * 4 + 4)));
  const lines = [`# Week 2026-W11: ${count(fetches)} regions`, ""];
  let sentence = 0;
  const cite = (id: number) => (++sentence % 50 === 0 ? "" : ` [s${id}]`);
  const wrong = (value: number) => (sentence % 100 === 99 ? value * 1.37 : value);
  joined.forEach((join, index) => {
    const id = fetches + 1 + index;
    lines.push(
      `- Regions ${join.regions.join(", ")} placed ${count(wrong(join.totals.orders))} orders worth ${money(join.totals.revenue_cny)}, with ${join.totals.refunds} refunds${cite(id)}.`,
    );
  });
  lines.push("", "| group | orders | revenue | refund rate |", "| --- | --- | --- | --- |");
  grouped.forEach((group, index) => {
    const id = fetches + joins + 1 + index;
    lines.push(
      `| ${group.group} | ${count(group.orders)} | ${money(wrong(group.revenue_cny))} | ${group.refund_rate_pct.toFixed(2)}%${cite(id)} |`,
    );
  });
  const orders = grouped.reduce((sum, group) => sum + group.orders, 0);
  const revenue = round2(grouped.reduce((sum, group) => sum + group.revenue_cny, 0));
  lines.push("", `In all, ${count(orders)} orders worth ${money(revenue)} [s${size}].`);
  return lines.join("\n");
}
