// What a host test says in passing (a retry, a box clicked into, an axe summary), into the log
// the runner prints with the spec report: the extension host's own console reaches only
// code-server's log file, which no run shows.
import * as fs from 'node:fs';

export function testLog(line: string): void {
  const file = process.env.ASSISTANT_CARDS_TEST_LOG;
  if (file) fs.appendFileSync(file, `${line}\n`);
  else console.log(line);
}
