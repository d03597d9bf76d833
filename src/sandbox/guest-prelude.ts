/*
 * The code the sandbox runs inside QuickJS before the program: it takes the two host
 * functions as arguments (so the program never holds them), fixes `Date` and `Math.random`,
 * builds the frozen `tools` object, and hands the host three helpers that run inside the
 * guest under its limits: compile the program, turn its result into JSON text, and describe
 * what it threw. Everything the program can do to these helpers (getters, `toJSON`, replaced
 * globals) runs in the guest, where the interrupt handler and the memory limit hold.
 */

/** What the prelude is told, as JSON. */
export interface PreludeSettings {
  /** The tool functions' names: `tools[name](args)`. */
  names: readonly string[];
  /** What `Date.now()` and `new Date()` say, in ms since 1970. */
  now: number;
  /** Seeds `Math.random`. */
  seed: number;
  /** The most characters of JSON the program may pass to a tool or return. */
  maxChars: number;
}

/** An expression: a function of (hostCall, hostLog, settingsJson) returning the host's helpers. */
export const guestPrelude = String.raw`(function (hostCall, hostLog, settingsJson) {
  "use strict";
  const stringify = JSON.stringify;
  const settings = JSON.parse(settingsJson);
  const maxChars = settings.maxChars;
  const toText = String;

  // Time stands still: the same program sees the same clock on every replay.
  const RealDate = Date;
  const fixedNow = settings.now;
  function FixedDate(...parts) {
    if (!new.target) return new RealDate(fixedNow).toString();
    return parts.length === 0 ? new RealDate(fixedNow) : new RealDate(...parts);
  }
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = function now() { return fixedNow; };
  FixedDate.parse = RealDate.parse;
  FixedDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, "constructor", { value: FixedDate, writable: true, configurable: true });
  globalThis.Date = FixedDate;

  // Garbage collection's timing would show through these: a replay could go another way.
  delete globalThis.WeakRef;
  delete globalThis.FinalizationRegistry;

  // mulberry32, seeded: the same draws on every replay.
  let state = settings.seed >>> 0;
  Math.random = function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };

  function shown(value) {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      return text === undefined ? toText(value) : text;
    } catch (error) {
      return toText(value);
    }
  }
  const log = function log(...parts) { hostLog(parts.map(shown).join(" ")); };
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });

  const tools = Object.create(null);
  for (const name of settings.names) {
    tools[name] = async function (args) {
      const text = stringify(args === undefined ? {} : args);
      if (typeof text !== "string") throw new TypeError("tools." + name + " takes one JSON value (an object of its arguments)");
      if (text.length > maxChars) throw new RangeError("the arguments for tools." + name + " are " + text.length + " characters; the limit is " + maxChars);
      return hostCall(name, text);
    };
  }
  Object.freeze(tools);
  Object.defineProperty(globalThis, "tools", { value: tools, writable: false, enumerable: false, configurable: false });

  const AsyncFunction = (async function () {}).constructor;
  return {
    // The program is the body of an async function: it cannot close the function early.
    compile(source) { return new AsyncFunction(source); },
    // JSON text of the result, or its length when it is over the limit.
    result(value) {
      const text = stringify(value === undefined ? null : value);
      if (typeof text !== "string") return "null";
      return text.length > maxChars ? text.length : text;
    },
    describe(error) {
      try {
        if (error instanceof Error) {
          const head = toText(error.name) + ": " + toText(error.message);
          // The prelude's own frames say nothing to the program's author.
          const frames = toText(error.stack || "").split("\n").filter((line) => line && !/prelude\.js|\(native\)/.test(line)).slice(0, 3).join("\n");
          return (frames ? head + "\n" + frames : head).slice(0, 2000);
        }
        return ("the program threw " + shown(error)).slice(0, 2000);
      } catch (failure) {
        return "the program threw a value that cannot be described";
      }
    },
  };
})`;
