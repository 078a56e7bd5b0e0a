import type { Shape } from '../../../core/kernel/shape';

/** A response encoding selectable by the extension of /api/<model>/<method>.<format>. */
export interface Format {
  /** The extension that selects this format, lower case. */
  readonly token: string;
  readonly contentType: string;
  /** render needs the method's declared answer (`shape`): looked up only for such a format. */
  readonly needsShape?: boolean;
  /**
   * @param root the model name of the request (`users`, `support_manager.tickets`); formats that need a
   *   document root use it, the others ignore it.
   * @param body the envelope: `{ response }`, or `{ message, errors }` on failure.
   * @param shape what the method declares it answers (`response`), for formats that tell a record
   *   from a set whose names vary (PHP: stdClass or array); the others ignore it.
   */
  render(root: string, body: Record<string, unknown>, shape?: Shape): string;
}
