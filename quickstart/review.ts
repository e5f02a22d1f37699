/**
 * The parts of `stretto flow-show`'s Markdown a newcomer reads first: the tools, the sites
 * and the bindings. The rest (the program it runs, the pinned inputs) stays in the file.
 */
const SHOWN = new Set(["Tools", "Sites", "Bindings"]);

export function reviewTables(markdown: string): string {
  const kept: string[] = [];
  let part = "";
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) part = line.slice(3).trim();
    if (SHOWN.has(part)) kept.push(line);
  }
  return kept.join("\n").replace(/\n+$/, "");
}
