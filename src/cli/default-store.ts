/** Where runs are checkpointed when `--store` names no place: `PLANLOOP_STORE`, else a file under ./.planloop. */
export const defaultStore = process.env.PLANLOOP_STORE || "sqlite:.planloop/runs.sqlite";

/** ` --store <flag>` for a command printed for the user to run next; nothing for the default store. */
export function storeFlag(flag: string | false): string {
  return flag === false || flag === defaultStore ? "" : ` --store ${flag}`;
}
