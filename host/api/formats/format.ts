/** A response encoding selectable by the extension of /api/<model>/<method>.<format>. */
export interface Format {
  /** The extension that selects this format, lower case. */
  readonly token: string;
  readonly contentType: string;
  /**
   * @param root the model name of the request (`users`, `support_manager.tickets`); formats that need a
   *   document root use it, the others ignore it.
   * @param body the envelope: `{ response }`, or `{ message, errors }` on failure.
   */
  render(root: string, body: Record<string, unknown>): string;
}
