// Text from a service, an answer or a hook's event, printed by the bridge or `ask` to a terminal:
// without its control and escape sequences (#52 F12). A service's error text could otherwise set
// the terminal's title (OSC), clear the screen (CSI), hide what follows, or ring its bell. Line
// breaks and tabs stay. Pure.

/* eslint-disable no-control-regex */
const SEQUENCES = new RegExp([
  // ESC [ or the one-byte CSI (U+009B): parameters, intermediates, a final byte.
  '(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]',
  // ESC ] (OSC), ESC P (DCS), ESC X (SOS), ESC ^ (PM), ESC _ (APC) or their one-byte forms, to BEL or ST (or the end).
  '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[\\s\\S]*?(?:\\u0007|\\u001b\\\\|\\u009c|$)',
  // Any other ESC sequence: intermediates and one final byte.
  '\\u001b[ -/]*[0-~]?',
].join('|'), 'g');
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/* eslint-enable no-control-regex */

/** The text without escape sequences and control characters; line feeds and tabs kept, a CR line end kept as a line end. */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(SEQUENCES, '').replace(CONTROLS, '');
}
