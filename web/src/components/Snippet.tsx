// A chunk's text as a reader wants it: markup rendered, tables as tables, sessions on
// lines, the query's words marked, long chunks folded.

import { useState } from "react";
import type { Block, Inline } from "../lib/text";
import { highlight, inlineMarkup, readableBlocks } from "../lib/text";

const FOLD_AT = 420;

function Marked({ text, terms }: { text: string; terms: string[] }) {
  return highlight(text, terms).map((segment, i) =>
    segment.mark ? <mark key={i}>{segment.text}</mark> : <span key={i}>{segment.text}</span>,
  );
}

function Styled({ inline, terms }: { inline: Inline; terms: string[] }) {
  const marked = <Marked text={inline.text} terms={terms} />;
  if (inline.style === "code") return <code>{marked}</code>;
  if (inline.style === "strong") return <strong>{marked}</strong>;
  if (inline.style === "em") return <em>{marked}</em>;
  return marked;
}

function Prose({ text, terms }: { text: string; terms: string[] }) {
  return (
    <p>
      {inlineMarkup(text).map((inline, i) => (
        <Styled key={i} inline={inline} terms={terms} />
      ))}
    </p>
  );
}

function Cells({ cells, terms, header }: { cells: string[]; terms: string[]; header: boolean }) {
  return (
    <tr>
      {cells.map((cell, i) =>
        header ? (
          <th key={i}>
            <Prose text={cell} terms={terms} />
          </th>
        ) : (
          <td key={i}>
            <Prose text={cell} terms={terms} />
          </td>
        ),
      )}
    </tr>
  );
}

function BlockView({ block, terms }: { block: Block; terms: string[] }) {
  if (block.kind === "code") {
    return (
      <pre>
        <Marked text={block.text} terms={terms} />
      </pre>
    );
  }
  if (block.kind === "table") {
    return (
      <div className="table-scroll">
        <table>
          {block.header.length > 0 && (
            <thead>
              {block.header.map((cells, i) => (
                <Cells key={i} cells={cells} terms={terms} header />
              ))}
            </thead>
          )}
          <tbody>
            {block.rows.map((cells, i) => (
              <Cells key={i} cells={cells} terms={terms} header={false} />
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return <Prose text={block.text} terms={terms} />;
}

export function Snippet({ chunk, terms }: { chunk: string; terms: string[] }) {
  const [open, setOpen] = useState(false);
  const long = chunk.length > FOLD_AT;
  return (
    <div className="chunk">
      <div className={long && !open ? "clamped" : ""}>
        {readableBlocks(chunk).map((block, i) => (
          <BlockView key={i} block={block} terms={terms} />
        ))}
      </div>
      {long && (
        <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "less" : "more"}
        </button>
      )}
    </div>
  );
}
