/**
 * Reads a Python literal as the papers' LLMCompiler code writes task arguments (`ast.literal_eval`):
 * strings in single or double quotes with escapes, numbers, `True`/`False`/`None`, lists,
 * tuples (read as lists) and dicts. Undefined when the text is not one whole literal.
 */
export function readPythonLiteral(text: string): { value: unknown } | undefined {
  const reader = new LiteralReader(text);
  try {
    const value = reader.value();
    reader.skipSpace();
    return reader.atEnd() ? { value } : undefined;
  } catch {
    return undefined;
  }
}

const escapes: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  "0": "\0",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "\n": "",
};

class LiteralReader {
  private at = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at += 1;
  }

  value(): unknown {
    this.skipSpace();
    const char = this.text[this.at];
    if (char === '"' || char === "'") return this.string(char);
    if (char === "[") return this.sequence("]");
    if (char === "(") return this.sequence(")");
    if (char === "{") return this.dict();
    const word = /^(True|False|None)\b/.exec(this.text.slice(this.at));
    if (word) {
      this.at += word[1]!.length;
      return word[1] === "True" ? true : word[1] === "False" ? false : null;
    }
    const number = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.text.slice(this.at));
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    throw new Error("not a literal");
  }

  private string(quote: string): string {
    this.at += 1;
    let out = "";
    while (this.at < this.text.length) {
      const char = this.text[this.at++]!;
      if (char === quote) return out;
      if (char !== "\\") {
        out += char;
        continue;
      }
      const next = this.text[this.at++] ?? "";
      if (next === "u" || next === "x") {
        const length = next === "u" ? 4 : 2;
        const hex = this.text.slice(this.at, this.at + length);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) throw new Error("bad escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.at += length;
      } else out += escapes[next] ?? `\\${next}`; // Python keeps an unknown escape as it is
    }
    throw new Error("unterminated string");
  }

  private sequence(close: string): unknown[] {
    this.at += 1;
    const items: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === close) {
        this.at += 1;
        return items;
      }
      items.push(this.value());
      this.skipSpace();
      if (this.text[this.at] === ",") this.at += 1;
      else if (this.text[this.at] !== close) throw new Error("expected , or the end");
    }
  }

  private dict(): Record<string, unknown> {
    this.at += 1;
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === "}") {
        this.at += 1;
        return { ...out };
      }
      const key = this.value();
      if (typeof key !== "string" && typeof key !== "number") throw new Error("dict key");
      this.skipSpace();
      if (this.text[this.at++] !== ":") throw new Error("expected :");
      Object.defineProperty(out, String(key), { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      if (this.text[this.at] === ",") this.at += 1;
      else if (this.text[this.at] !== "}") throw new Error("expected , or }");
    }
  }
}
