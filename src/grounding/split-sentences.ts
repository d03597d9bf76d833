/** One sentence of an answer (a line of a table or list counts as one), with the steps it cites. */
export interface Sentence {
  index: number;
  /** As written, citations included. */
  text: string;
  /** Offsets in the answer. */
  start: number;
  end: number;
  /** The step ids it cites (`[s3]`, `[s3, s4]`, `[s:orders]`), known ids only. */
  cites: string[];
  /** Citations of steps that do not exist (`[s9]` in a plan of five steps). */
  unknownCites: string[];
}

/** A bracket that may hold citations; `[text](url)` is a link, not a citation. */
const bracket = /\[([^\][\n]{1,80})\](?!\()/g;
/** What a citation token looks like when it names no known step. */
const citationShape = /^(?:s|step\s*|t)[:\s]?[\w.-]+$/i;
/** Where a sentence may end inside a line: punctuation (and the citations after it), then a new sentence's start or the line's end. */
const sentenceEnd = /[.!?](?:\s*\[[^\][\n]{1,80}\])*(?=\s+["“(\[*#_A-Z0-9¥$€£-]|\s*$)/g;
const abbreviation = /(?:\b(?:e\.g|i\.e|etc|vs|approx|no|mr|mrs|ms|dr|inc|ltd|co|fig|est|mio|mrd|tsd|bzw|ca|mln|mld)|\b[A-Z])\.$/i;

/** How an answer cites a step: `[s3]`, or `[s:orders]` for an id that is not a number. */
export function citationOf(id: string | number): string {
  return /^\d+$/.test(String(id)) ? `s${id}` : `s:${id}`;
}

/** The known step id a citation token names: `3`, `s3`, `s:3`, `step 3`. */
function citedId(token: string, ids: ReadonlySet<string>): string | undefined {
  if (ids.has(token)) return token;
  const bare = /^(?:step\s*|s:?)(.+)$/i.exec(token)?.[1];
  return bare !== undefined && ids.has(bare) ? bare : undefined;
}

/** The citations in a stretch of text; brackets that are not citations are left as text. */
export function readCitations(
  text: string,
  ids: ReadonlySet<string>,
): { cites: string[]; unknown: string[]; spans: Array<[number, number]> } {
  const cites: string[] = [];
  const unknown: string[] = [];
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(bracket)) {
    const tokens = match[1]!.split(/\s*[,;]\s*|\]\s*\[/).map((token) => token.trim());
    const known = tokens.map((token) => citedId(token, ids));
    if (known.every((id) => id === undefined) && !tokens.every((token) => citationShape.test(token))) continue;
    tokens.forEach((token, at) => {
      const id = known[at];
      if (id !== undefined) cites.push(id);
      else if (citationShape.test(token)) unknown.push(token);
    });
    spans.push([match.index, match.index + match[0].length]);
  }
  return { cites: [...new Set(cites)], unknown: [...new Set(unknown)], spans };
}

/** `[start, end)` pieces of a line, split where a sentence ends. */
function splitLine(line: string): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  let from = 0;
  for (const match of line.matchAll(sentenceEnd)) {
    const end = match.index + match[0].length;
    if (abbreviation.test(line.slice(from, match.index + 1))) continue;
    pieces.push([from, end]);
    from = end;
  }
  pieces.push([from, line.length]);
  return pieces;
}

/** A line's list marker or heading marks, which are not part of what it says. */
const lineMarker = /^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d{1,3}[.)]\s+)?/;

/**
 * Splits an answer into sentences: each line on its own (a table row, a list item, a
 * heading), and lines into sentences at `. `, `! ` and `? ` (not after "e.g." or an
 * initial). A citation written after the full stop ("... 12%. [s3]") belongs to the
 * sentence before it.
 */
export function splitSentences(answer: string, ids: ReadonlySet<string>): Sentence[] {
  return readSentences(answer, ids).sentences;
}

/**
 * `splitSentences`, with where each sentence's citations stand in its text (by its index): what the checker masks,
 * read here once rather than again for each sentence.
 */
export function readSentences(
  answer: string,
  ids: ReadonlySet<string>,
): { sentences: Sentence[]; citationSpans: Array<Array<[number, number]>> } {
  const sentences: Sentence[] = [];
  const citationSpans: Array<Array<[number, number]>> = [];
  let lineStart = 0;
  for (const line of answer.split("\n")) {
    const marker = lineMarker.exec(line)![0].length;
    if (!/^\s*\|?\s*:?-{3,}/.test(line)) {
      for (const [from, to] of splitLine(line.slice(marker))) {
        const start = lineStart + marker + from;
        const text = answer.slice(start, lineStart + marker + to).trim();
        if (!/[\p{L}\p{N}]/u.test(text)) continue;
        const offset = answer.indexOf(text, start);
        const { cites, unknown, spans } = readCitations(text, ids);
        sentences.push({ index: sentences.length, text, start: offset, end: offset + text.length, cites, unknownCites: unknown });
        citationSpans.push(spans);
      }
    }
    lineStart += line.length + 1;
  }
  return { sentences, citationSpans };
}
