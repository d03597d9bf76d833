/**
 * Ctrl-C during a run: the first press aborts the run's signal, so the library stops every
 * step and model call at once and hands back a resumable `cancelled` result, which the
 * command saves; a second press exits at once.
 */
export function onInterrupt(): { signal: AbortSignal; interrupted(): boolean; dispose(): void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort(new Error("interrupted (Ctrl-C)"));
  };
  process.on("SIGINT", handler);
  return {
    signal: controller.signal,
    interrupted: () => controller.signal.aborted,
    dispose: () => process.off("SIGINT", handler),
  };
}
