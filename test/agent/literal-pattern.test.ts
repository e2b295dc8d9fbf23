import { describe, expect, it } from "vitest";
import { literalPattern } from "../../src/kernel/redact/literal-pattern.js";

const matches = (text: string, words: string[]) => [...text.matchAll(literalPattern(words))].map((match) => [match.index, match[0]]);

describe("literalPattern", () => {
  it("finds the leftmost word first and, of words starting there, the longest", () => {
    expect(matches("xx abcdef abc ab", ["ab", "abc", "abcdef", "bcd"])).toEqual([
      [3, "abcdef"],
      [10, "abc"],
      [14, "ab"],
    ]);
    // Leftmost wins over longest: "bcdefgh" starts later than "abc".
    expect(matches("abcdefgh", ["abc", "bcdefgh"])).toEqual([[0, "abc"]]);
    // A longer word that fails part way gives back the shorter one it passed.
    expect(matches("abcdX", ["ab", "abcde"])).toEqual([[0, "ab"]]);
  });

  it("treats every character literally, ignores empty words, and matches nothing without words", () => {
    expect(matches("a.b a+b (x)|[y] \\d $^", ["a.b", "(x)|[y]", "\\d", "$^"])).toEqual([
      [0, "a.b"],
      [8, "(x)|[y]"],
      [16, "\\d"],
      [19, "$^"],
    ]);
    expect(matches("aXb", ["a.b"])).toEqual([]);
    expect(matches("anything", [])).toEqual([]);
    expect(matches("anything", [""])).toEqual([]);
    expect(matches("line\nbreak", ["e\nb"])).toEqual([[3, "e\nb"]]);
  });

  it("handles long words and many words sharing starts", () => {
    const long = "k".repeat(20_000) + "end";
    expect(matches(`x${long}y`, [long, long.slice(0, 8)])).toEqual([[1, long]]);
    const words = Array.from({ length: 300 }, (_, i) => `sk-proj-${i.toString(36).padStart(4, "0")}`);
    expect(matches(`a ${words[299]} b ${words[0]} sk-proj-zzzz`, words)).toEqual([
      [2, words[299]],
      [17, words[0]],
    ]);
  });
});
