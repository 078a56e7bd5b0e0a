import type { IncomingMessage } from 'node:http';

export interface CappedBody {
  /** The body, or its first `cap` bytes when it is larger. */
  readonly bytes: Buffer;
  /** Its whole size as sent (counted to the end, so the inbox can say how large it was). */
  readonly size: number;
  readonly overCap: boolean;
}

/**
 * Reads a request body as raw bytes, keeping at most `cap` of them: a signature is checked on
 * the body exactly as sent, so nothing may parse or re-encode it first. What is over the cap is
 * counted and dropped, never held; a sender that keeps going past `drainLimit` is cut off.
 */
export async function readCappedBody(request: IncomingMessage, cap: number, drainLimit = cap * 16): Promise<CappedBody> {
  const kept: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    const room = cap - Math.min(size, cap);
    if (room > 0) kept.push(chunk.subarray(0, room));
    size += chunk.length;
    if (size > drainLimit) {
      request.destroy();
      break;
    }
  }
  return { bytes: Buffer.concat(kept), size, overCap: size > cap };
}
