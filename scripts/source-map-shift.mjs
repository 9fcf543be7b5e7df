// A source map (v3) kept right through text edits that keep every line break where it was
// (scripts/esm-to-cjs.mjs): each edit replaces [start, end) of the old text with text holding as
// many line breaks, so a generated line keeps its number and only its columns after an edit move.
// Mappings inside a replaced range are dropped (they pointed at the module syntax replaced), but
// for one at its start when new text of the same line stands there (a dynamic import's keyword).

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]));

/** The numbers of one segment (base64 VLQ). */
function decodeSegment(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const digit = B64_VALUE.get(c);
    if (digit === undefined) throw new Error(`source map: "${c}" is not base64`);
    value += (digit & 31) << shift;
    if (digit & 32) { shift += 5; continue; }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

function encodeValue(n) {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v) digit |= 32;
    out += B64[digit];
  } while (v);
  return out;
}

/** [line][segment] of absolute [column, source, line, column, name?] (a segment of one number stays one). */
export function decodeMappings(mappings) {
  const state = [0, 0, 0, 0];
  return mappings.split(';').map((line) => {
    state[0] = 0;
    return line ? line.split(',').map((seg) => {
      const d = decodeSegment(seg);
      return d.map((x, i) => (state[i] = (state[i] ?? 0) + x));
    }) : [];
  });
}

export function encodeMappings(lines) {
  const state = [0, 0, 0, 0, 0];
  return lines.map((segs) => {
    state[0] = 0;
    return segs.map((seg) => seg.map((x, i) => { const d = x - state[i]; state[i] = x; return encodeValue(d); }).join('')).join(',');
  }).join(';');
}

/** Line and column (0-based) of each offset, for offsets in ascending order. */
function positions(text, offsets) {
  const out = [];
  let line = 0;
  let lineStart = 0;
  let at = 0;
  for (const offset of offsets) {
    for (; at < offset; at++) if (text.charCodeAt(at) === 10) { line++; lineStart = at + 1; }
    out.push([line, offset - lineStart]);
  }
  return out;
}

/**
 * @param {object} map  the source map of `code`
 * @param {string} code  the text before the edits
 * @param {{ start: number, end: number, text: string }[]} edits  sorted, not overlapping, each `text` with as many line breaks as code.slice(start, end)
 */
export function shiftSourceMap(map, code, edits) {
  const ends = positions(code, edits.flatMap((e) => [e.start, e.end]));
  /** Per generated line: its edits as [start column or -1 when it began on an earlier line, end column, new length of what replaced it on this line]. */
  const byLine = new Map();
  edits.forEach((e, i) => {
    const [startLine, startCol] = ends[2 * i];
    const [endLine, endCol] = ends[2 * i + 1];
    if ((e.text.split('\n').length - 1) !== endLine - startLine) throw new Error('source map: an edit changed the number of lines');
    const tail = e.text.slice(e.text.lastIndexOf('\n') + 1).length;
    for (let l = startLine; l <= endLine; l++) {
      const list = byLine.get(l) ?? [];
      list.push([l === startLine ? startCol : -1, l === endLine ? endCol : Infinity, l === endLine ? tail : 0]);
      byLine.set(l, list);
    }
  });
  const lines = decodeMappings(map.mappings).map((segs, l) => {
    const lineEdits = byLine.get(l);
    if (!lineEdits) return segs;
    return segs.flatMap((seg) => {
      const col = seg[0];
      let moved = 0;
      for (const [s, e, tail] of lineEdits) {
        if (col >= e) {
          // After this edit: it now ends `tail` after its start (or at `tail` when it began above).
          moved = s < 0 ? tail - e : moved + tail - (e - s);
        } else if (col > s || (col === s && !(tail > 0 && e !== Infinity))) {
          return []; // inside what was replaced (its first column stays when something replaced it there)
        }
      }
      return [[col + moved, ...seg.slice(1)]];
    });
  });
  return { ...map, mappings: encodeMappings(lines) };
}
