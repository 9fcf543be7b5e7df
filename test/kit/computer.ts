// "This computer" on a sandbox: a computer whose identity file is written where the client reads
// it, and assistants on it, each with one agent ('main'). Through any control-surface caller, so
// the plain-Node world (in-process sandbox) and the host world (sandbox process) set up alike.
// No vscode import.

/** A control-surface call that answers the JSON body and throws on a refusal. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- control-surface JSON, read loosely in tests
export type ControlCall = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<any>;

export interface ComputerSetUp {
  machine: { id: string; name: string; privateJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string } };
  /** Per assistant asked for, in order: its id and its agent's. */
  assistants: { id: string; agentId: string }[];
}

export async function setUpComputer(
  control: ControlCall,
  o: { name: string; writeTo: string; assistants: { name: string; app: string }[] },
): Promise<ComputerSetUp> {
  const machine = await control('POST', '/_sandbox/machines', { name: o.name, writeTo: o.writeTo });
  const assistants: ComputerSetUp['assistants'] = [];
  for (const a of o.assistants) {
    const assistant = await control('POST', '/_sandbox/assistants', { name: a.name, app: a.app, machineId: machine.id });
    const agent = await control('POST', '/_sandbox/agents', { assistantId: assistant.id, name: 'main' });
    assistants.push({ id: assistant.id, agentId: agent.id });
  }
  return { machine, assistants };
}
