/** A tool's arguments checked: the value that passed, or what is wrong with them. */
export type InputCheck = { ok: true; value: unknown } | { ok: false; problems: string };
