import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../core/errors.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import type { PendingItem } from "../client/api-types.js";
import { decisionForm, decisionsOf, type FormAnswer } from "./mcp-elicit.js";
import { pendingMetaKey, type RunTasks } from "./mcp-tasks.js";
import type { RunChanges } from "./run-changes.js";
import type { RunHost } from "../runs/run-host.js";
import { viewOfRun } from "./run-view.js";

/** How long a person has to answer an elicitation (ms); the run waits on after it, for `decide`. */
const formTimeoutMs = 24 * 3600_000;

export interface TaskDriverOptions {
  store: CheckpointStore;
  host: RunHost;
  changes: RunChanges;
  tasks: RunTasks;
  /** The MCP server's protocol side: elicitations, status notifications, the client's capabilities. */
  server: Server;
  /** How often a task's run is looked at for what other processes wrote (ms). */
  pollMs: number;
  /** Told what went wrong where nobody waits for an answer (stderr for `planloop mcp`). */
  log?: ((line: string) => void) | undefined;
  /** Who a form's answer is kept as given by: `mcp elicitation` over stdio, `<token name> (elicitation)` over HTTP. */
  decidedBy: string;
}

const terminal = new Set(["completed", "failed", "cancelled"]);

/**
 * Follows tasks in a server that keeps its client (stdio): tells the client each change of a
 * task's status, asks the person through an elicitation when the run waits for them (a client
 * that supports forms gets it on its `tasks/result`), continues the run with the answer, and
 * takes over a task's run that a stopped process left running. A task is followed from its
 * call, or from the first time a client asks about it after a restart.
 */
export class TaskDriver {
  /** The tasks followed, each with what to call when it ends. */
  private readonly driving = new Map<string, Array<() => void>>();
  /** Forms the person closed, or that could not be asked: not asked again for the same wave. */
  private readonly dismissed = new Set<string>();
  private readonly adopted = new Set<string>();
  private closed = false;
  private readonly whenClosed: Promise<void>;
  private readonly markClosed: () => void;

  constructor(private readonly options: TaskDriverOptions) {
    let markClosed = () => {};
    this.whenClosed = new Promise((resolve) => (markClosed = resolve));
    this.markClosed = markClosed;
  }

  /** Follows the task's run until it ends (once, however often it is asked); `onEnd` when it does. */
  drive(taskId: string, onEnd?: () => void): void {
    if (this.closed) return void onEnd?.();
    const ends = this.driving.get(taskId);
    if (ends !== undefined) return void (onEnd && ends.push(onEnd));
    this.driving.set(taskId, onEnd ? [onEnd] : []);
    void this.follow(taskId)
      .catch((error: unknown) => this.options.log?.(`task ${taskId}: ${errorMessage(error)}`))
      .finally(() => {
        for (const end of this.driving.get(taskId) ?? []) end();
        this.driving.delete(taskId);
      });
  }

  /** Stops following: no more forms or notifications (the runs go on). */
  close(): void {
    this.closed = true;
    this.markClosed();
  }

  private async follow(taskId: string): Promise<void> {
    const { host, tasks, changes } = this.options;
    let told = "";
    let looked = "";
    let form: { key: string; controller: AbortController } | undefined;
    try {
      while (!this.closed) {
        if (host.isLive(taskId)) await Promise.race([host.settled(taskId), this.whenClosed]);
        // The run's row first (no journal): a task that waits is read again only when it moved.
        const moved = await this.rowOf(taskId);
        if (moved === looked) {
          await Promise.race([changes.next(taskId, this.options.pollMs), this.whenClosed]);
          continue;
        }
        looked = moved;
        const task = await tasks.getTask(taskId);
        if (task === null || this.closed) return;
        const seen = `${task.status} ${task.statusMessage ?? ""}`;
        if (seen !== told) {
          told = seen;
          await this.tell(task);
        }
        if (terminal.has(task.status)) return;
        const pending = task.status === "input_required" ? pendingOfTask(task) : [];
        const key = `${taskId} ${pending.map((item) => item.id).join(",")}`;
        if (form !== undefined && form.key !== key) {
          form.controller.abort();
          form = undefined;
        }
        if (pending.length > 0 && form === undefined && this.canAsk() && !this.dismissed.has(key)) {
          const controller = new AbortController();
          form = { key, controller };
          void this.ask(taskId, pending, key, controller.signal);
        }
        if (task.status === "working") await this.adopt(taskId);
        await Promise.race([changes.next(taskId, this.options.pollMs), this.whenClosed]);
      }
    } finally {
      form?.controller.abort();
    }
  }

  /** Asks the person for the wave through an elicitation and continues the run with what they decided. */
  private async ask(taskId: string, pending: PendingItem[], key: string, signal: AbortSignal): Promise<void> {
    let answer: FormAnswer;
    try {
      answer = await this.options.server.elicitInput(
        { mode: "form", ...decisionForm(taskId, pending), _meta: { [pendingMetaKey]: pending } },
        { relatedTask: { taskId }, signal, timeout: formTimeoutMs },
      );
    } catch (error) {
      if (!signal.aborted) {
        this.dismissed.add(key);
        this.options.log?.(`task ${taskId}: the elicitation went unanswered (${errorMessage(error)}); decide with the decide tool`);
      }
      return;
    }
    if (signal.aborted) return;
    // Decided elsewhere meanwhile (decide, the ui): only what is still pending is taken.
    const now = (await viewOfRun(this.options.store, taskId))?.pending ?? [];
    const still = new Set(now.map((item) => item.id));
    const decisions = decisionsOf(
      pending.filter((item) => still.has(item.id)),
      answer,
    );
    if (decisions.length === 0) return void this.dismissed.add(key);
    try {
      const { done } = await this.options.host.decide(taskId, { decisions, by: this.options.decidedBy });
      this.options.changes.changed(taskId);
      await done;
    } catch (error) {
      this.options.log?.(`task ${taskId}: ${errorMessage(error)}`);
    }
  }

  /**
   * A task whose run reads as running but runs nowhere here: its process may have stopped
   * mid-run. Continued once (under its lease: a run another process holds is left to it).
   */
  private async adopt(taskId: string): Promise<void> {
    const { host, store } = this.options;
    if (this.adopted.has(taskId) || host.isLive(taskId)) return;
    const run = await store.getRun(taskId);
    if (run === undefined || run.status !== "running" || !(await host.hosts(taskId))) return;
    this.adopted.add(taskId);
    try {
      const { done } = await host.continue(taskId);
      await done;
    } catch (error) {
      this.options.log?.(`task ${taskId}: not taken over: ${errorMessage(error)}`);
    }
  }

  /** How the run's row looks (no journal read): what changes when anything is written to it. */
  private async rowOf(runId: string): Promise<string> {
    const [row] = await this.options.store.listRuns({ runId, limit: 1 });
    return row === undefined ? "" : `${row.updatedAt} ${row.entries} ${row.status} ${row.outcome?.status ?? ""}`;
  }

  private canAsk(): boolean {
    return this.options.server.getClientCapabilities()?.elicitation !== undefined;
  }

  private async tell(task: Task): Promise<void> {
    const { _meta: _left, ...params } = task as Task & { _meta?: unknown };
    try {
      await this.options.server.notification({ method: "notifications/tasks/status", params } as never);
    } catch {
      // A client gone: nothing to tell.
    }
  }
}

/** What a waiting task's run waits for, from its `_meta`. */
export function pendingOfTask(task: Task): PendingItem[] {
  const meta = (task as { _meta?: Record<string, unknown> })._meta;
  return (meta?.[pendingMetaKey] as PendingItem[] | undefined) ?? [];
}
