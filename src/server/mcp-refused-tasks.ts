import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";

/**
 * The tasks whose run could not start (a plan that does not check, a runId that is taken): no
 * run row holds them, so `tasks/list`, which pages over the store's runs, reads them from here.
 * Kept newest first, the oldest let go past `keep` (their records lapse by their ttl anyway).
 */
const refusedKey = "planloop:mcp:refused-tasks";
const keep = 500;

export interface RefusedTask {
  taskId: string;
  createdAt: number;
}

/** Notes a refused task, so that tasks/list finds it. */
export async function noteRefusedTask(store: CheckpointStore, task: RefusedTask): Promise<void> {
  await updateValue(store, refusedKey, (current) => [task, ...refusedOf(current)].sort(newestFirst).slice(0, keep));
}

/** The refused tasks older than `before` (a page's last line), newest first. */
export async function refusedTasks(store: CheckpointStore, before?: { createdAt: number; runId: string }): Promise<RefusedTask[]> {
  const all = refusedOf(await store.getValue(refusedKey));
  return before === undefined ? all : all.filter((task) => newestFirst(task, { taskId: before.runId, createdAt: before.createdAt }) > 0);
}

/** The order of `listRuns`: newer first, and among equals the greater id first. */
export function newestFirst(a: RefusedTask, b: RefusedTask): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0;
}

/** What the store holds, checked: it is input, not truth. */
function refusedOf(value: unknown): RefusedTask[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is RefusedTask =>
      typeof item === "object" && item !== null && typeof item.taskId === "string" && typeof item.createdAt === "number",
  );
}
