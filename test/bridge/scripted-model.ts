// A scripted stand-in for the model behind the real assistant CLIs, so tests can drive Claude Code
// and Codex without the network. One node:http server on 127.0.0.1 (port 0) speaks:
//  - Anthropic Messages streaming (POST /v1/messages, SSE message_start … message_stop), which
//    Claude Code uses with ANTHROPIC_BASE_URL=<url>; its side calls at startup and during a turn
//    (count_tokens, title/topic requests without tools, /api/* lookups) get short harmless answers;
//  - OpenAI Responses streaming (POST /v1/responses, SSE response.created … response.completed),
//    which Codex uses with a custom provider `base_url = "<url>/v1"`, `wire_api = "responses"`;
//  - Gemini generateContent (POST /v1beta/models/<m>:streamGenerateContent?alt=sse and
//    :generateContent), which Gemini CLI uses with GOOGLE_GEMINI_BASE_URL=<url> and an API key;
//    its side calls that want JSON (the next-speaker check) get `{"next_speaker": "user"}`.
// The script is a list of steps. The step a request gets is chosen from the request itself, not
// from a counter: the number of assistant turns already in its history (Claude: assistant
// messages; Codex: function_call items), so retries and side requests cannot shift it. Past the
// end of the script the last step repeats. Every request (path, headers, parsed body) is recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies of two foreign APIs, read loosely
type Json = any;

/** One model turn: run a shell command, call any tool with any input, or end with text. */
export type Step =
  | {
    bash: string;
    /** Claude's Bash `description`. */
    description?: string;
    /** Codex: ask to run outside the sandbox (`sandbox_permissions: "require_escalated"`), which is
     *  what makes Codex ask for approval (and so run a PermissionRequest hook) under `on-request`. */
    escalate?: boolean;
  }
  | { tool: string; input: Record<string, unknown> }
  | { text: string };

export interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (undefined for none or non-JSON). */
  body: Json;
  /** Which API the request was answered as, and the step index it got (main turns only). */
  kind: 'anthropic' | 'anthropic-side' | 'openai' | 'openai-side' | 'gemini' | 'gemini-side' | 'other';
  step?: number;
  /** When the request was read whole and its answer began (Date.now()): a tool call's time, for what follows it. */
  at: number;
}

export interface ScriptedModel {
  /** http://127.0.0.1:PORT (no trailing slash): ANTHROPIC_BASE_URL; Codex's base_url is url + '/v1'. */
  url: string;
  port: number;
  requests: Recorded[];
  /** Main-turn requests only (the ones with the agent's tools), in arrival order. */
  turns(kind: 'anthropic' | 'openai' | 'gemini'): Recorded[];
  /** Every string anywhere in the recorded main-turn request bodies, joined: for "did X reach the model". */
  seenText(kind: 'anthropic' | 'openai' | 'gemini'): string;
  close(): Promise<void>;
}

export interface ScriptOptions {
  /** Steps for Claude Code (Anthropic API). */
  claude?: Step[];
  /** Steps for Codex (Responses API). */
  codex?: Step[];
  /** Steps for Gemini CLI (generateContent); `bash` is its run_shell_command. */
  gemini?: Step[];
  /** Model name echoed back; any string the CLI accepts. */
  model?: string;
}

const DEFAULT_END: Step = { text: 'Done.' };

export async function startScriptedModel(opts: ScriptOptions = {}): Promise<ScriptedModel> {
  const requests: Recorded[] = [];
  let ids = 0;
  const nextId = (p: string) => `${p}_${(++ids).toString().padStart(6, '0')}scripted`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Json;
      try { body = raw ? JSON.parse(raw) : undefined; } catch { body = undefined; }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const rec: Recorded = { method: req.method ?? 'GET', path, headers: req.headers, body, kind: 'other', at: Date.now() };
      requests.push(rec);
      try {
        route(rec, res);
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'scripted_model_error', message: String(e) } }));
      }
    });
  });

  function route(rec: Recorded, res: http.ServerResponse) {
    const p = rec.path;
    if (rec.method === 'POST' && /\/v1\/messages\/count_tokens$/.test(p)) {
      return json(res, 200, { input_tokens: 100 });
    }
    if (rec.method === 'POST' && /\/v1\/messages$/.test(p)) return anthropic(rec, res);
    if (rec.method === 'POST' && /\/responses$/.test(p)) return openai(rec, res);
    if (rec.method === 'POST' && /:countTokens$/.test(p)) return json(res, 200, { totalTokens: 100 });
    if (rec.method === 'POST' && /:(stream)?[gG]enerateContent$/.test(p)) return gemini(rec, res, /:stream/.test(p));
    if (rec.method === 'GET' && /\/models$/.test(p)) return json(res, 200, { data: [], models: [], object: 'list' });
    // Anything else Claude Code or Codex looks up at startup (e.g. /api/hello, feature flags):
    // an empty success, which both treat as "nothing to tell".
    return json(res, 200, {});
  }

  // ---------------- Anthropic Messages API ----------------

  function anthropic(rec: Recorded, res: http.ServerResponse) {
    const b = rec.body ?? {};
    const tools: Json[] = Array.isArray(b.tools) ? b.tools : [];
    const main = tools.some((t) => t?.name === 'Bash');
    let step: Step;
    if (main) {
      const script = opts.claude?.length ? opts.claude : [DEFAULT_END];
      const done = (Array.isArray(b.messages) ? b.messages : []).filter((m: Json) => m?.role === 'assistant').length;
      rec.kind = 'anthropic';
      rec.step = Math.min(done, script.length - 1);
      step = script[rec.step] ?? DEFAULT_END;
    } else {
      // A side request (title, topic, quota probe...): a short plain answer.
      rec.kind = 'anthropic-side';
      step = { text: 'ok' };
    }
    const model = b.model ?? opts.model ?? 'claude-sonnet-4-5';
    const msgId = nextId('msg');
    const content: Json[] = [];
    if ('text' in step) content.push({ type: 'text', text: step.text });
    else {
      const input = 'bash' in step ? { command: step.bash, description: step.description ?? 'Run a command' } : step.input;
      const name = 'bash' in step ? 'Bash' : step.tool;
      content.push({ type: 'tool_use', id: nextId('toolu'), name, input });
    }
    const stopReason = content.some((c) => c.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (b.stream !== true) {
      return json(res, 200, { id: msgId, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': nextId('req') });
    const ev = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    ev('message_start', { type: 'message_start', message: { id: msgId, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
    content.forEach((c, index) => {
      if (c.type === 'text') {
        ev('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: c.text } });
      } else {
        ev('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
        ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.input) } });
      }
      ev('content_block_stop', { type: 'content_block_stop', index });
    });
    ev('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
    ev('message_stop', { type: 'message_stop' });
    res.end();
  }

  // ---------------- OpenAI Responses API (Codex) ----------------

  function openai(rec: Recorded, res: http.ServerResponse) {
    const b = rec.body ?? {};
    const tools: Json[] = Array.isArray(b.tools) ? b.tools : [];
    const toolNames = tools.map((t) => t?.name ?? t?.function?.name ?? t?.type).filter(Boolean);
    const shellTool = ['exec_command', 'shell_command', 'shell'].find((n) => toolNames.includes(n));
    const input: Json[] = Array.isArray(b.input) ? b.input : [];
    let step: Step;
    if (shellTool || tools.length) {
      const script = opts.codex?.length ? opts.codex : [DEFAULT_END];
      const done = input.filter((i) => i?.type === 'function_call' || i?.type === 'custom_tool_call' || i?.type === 'local_shell_call').length;
      rec.kind = 'openai';
      rec.step = Math.min(done, script.length - 1);
      step = script[rec.step] ?? DEFAULT_END;
    } else {
      rec.kind = 'openai-side';
      step = { text: 'ok' };
    }
    const model = b.model ?? opts.model ?? 'gpt-5';
    const respId = nextId('resp');
    const items: Json[] = [];
    if ('text' in step) {
      items.push({ type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] });
    } else if ('bash' in step) {
      const name = shellTool ?? 'shell';
      const esc = step.escalate ? { sandbox_permissions: 'require_escalated', justification: step.description ?? 'Run this command outside the sandbox?' } : {};
      const args = name === 'exec_command' ? { cmd: step.bash, ...esc } : name === 'shell_command' ? { command: step.bash, ...esc } : { command: ['bash', '-lc', step.bash], ...esc };
      items.push({ type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name, arguments: JSON.stringify(args), status: 'completed' });
    } else {
      items.push({ type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: step.tool, arguments: JSON.stringify(step.input), status: 'completed' });
    }
    const response = (status: string, output: Json[]) => ({ id: respId, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model, output, usage: status === 'completed' ? { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } : null });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
    ev('response.created', { response: response('in_progress', []) });
    items.forEach((item, output_index) => {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', ...(item.type === 'message' ? { content: [] } : { arguments: '' }) } });
      if (item.type === 'message') {
        ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: item.content[0].text });
        ev('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text: item.content[0].text });
      } else {
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
        ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
      }
      ev('response.output_item.done', { output_index, item });
    });
    ev('response.completed', { response: response('completed', items) });
    res.end();
  }

  // ---------------- Gemini generateContent (Gemini CLI) ----------------

  function gemini(rec: Recorded, res: http.ServerResponse, stream: boolean) {
    const b = rec.body ?? {};
    const declared: Json[] = (Array.isArray(b.tools) ? b.tools : []).flatMap((t: Json) => (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : []));
    const main = declared.some((d) => d?.name === 'run_shell_command');
    const parts: Json[] = [];
    if (main) {
      const script = opts.gemini?.length ? opts.gemini : [DEFAULT_END];
      const contents: Json[] = Array.isArray(b.contents) ? b.contents : [];
      const done = contents.filter((c) => c?.role === 'model' && Array.isArray(c.parts) && c.parts.some((x: Json) => x?.functionCall)).length;
      rec.kind = 'gemini';
      rec.step = Math.min(done, script.length - 1);
      const step = script[rec.step] ?? DEFAULT_END;
      if ('text' in step) parts.push({ text: step.text });
      else if ('bash' in step) parts.push({ functionCall: { name: 'run_shell_command', args: { command: step.bash, description: step.description ?? 'Run a command' } } });
      else parts.push({ functionCall: { name: step.tool, args: step.input } });
    } else {
      rec.kind = 'gemini-side';
      const wantsJson = b.generationConfig?.responseMimeType === 'application/json' || b.config?.responseMimeType === 'application/json';
      // The next-speaker check and the model router's classifier: both read JSON.
      parts.push({ text: wantsJson ? JSON.stringify({ reasoning: 'The turn is complete.', next_speaker: 'user', complexity_reasoning: 'simple', complexity_score: 1 }) : 'ok' });
    }
    const body = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: opts.model ?? 'gemini-2.5-pro',
    };
    if (!stream) return json(res, 200, body);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(`data: ${JSON.stringify(body)}\r\n\r\n`);
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    turns: (kind) => requests.filter((r) => r.kind === kind),
    seenText: (kind) => {
      const out: string[] = [];
      const walk = (v: unknown) => {
        if (typeof v === 'string') out.push(v);
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') Object.values(v).forEach(walk);
      };
      requests.filter((r) => r.kind === kind).forEach((r) => walk(r.body));
      return out.join('\n');
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
