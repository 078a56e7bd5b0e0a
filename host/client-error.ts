import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERRORS } from '../core/kernel/errors';

/**
 * Answers requests Node's HTTP parser refuses before Koa sees them (bytes not allowed in a URL or
 * header, a request head over the size limit, a broken chunked body) with the contract's JSON
 * error object instead of Node's empty-bodied reply, so a client always gets a body it can read.
 * Statuses follow Node's own choice for each parser error.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = statusFor(error.code);
  const body = JSON.stringify({ message });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function statusFor(code: string | undefined): [number, string, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'The request line and headers are too large; send long parameter lists in a POST body.'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', ERRORS.payload_too_large.message];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'The request was not received in time.'];
    default:
      return [400, 'Bad Request', ERRORS.bad_request.message];
  }
}

/**
 * A request whose `Expect` header is anything but `100-continue` (which Node answers itself):
 * 417, as HTTP prescribes, with the contract's JSON error object rather than an empty body.
 */
export function answerUnknownExpectation(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ message: EXPECTATION_FAILED });
  res.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
  // The body the client may still send is not wanted.
  req.resume();
}

export const EXPECTATION_FAILED = 'The Expect header is not supported; only "Expect: 100-continue" is.';
