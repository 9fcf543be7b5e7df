// Requests Node or the router refuse before any route runs (a timed-out body, headers or a URL too
// large, a broken request line, an over-long path parameter): answered as problems too, so a
// client of /v1 reads every refusal the same way (RFC 9457, with a `code`).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { problemBody } from './problems';

const BASE = 'http://127.0.0.1';

/** For the server's clientError: the request never parsed, so its path is unknown. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const detail = status === 408 ? 'The request did not arrive in time.' : status === 431 ? 'The request line or headers are too large.' : 'The request could not be read.';
  const body = JSON.stringify({ ...problemBody(BASE, 'invalid', detail), status });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `Content-Type: application/problem+json\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** Status of a router refusal: 414 for an over-long path parameter, else 400. */
export function frameworkStatus(code: string | undefined): number {
  return code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
}
