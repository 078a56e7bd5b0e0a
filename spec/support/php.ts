import { spawnSync } from 'node:child_process';

/** True when a PHP CLI is installed; specs that need PHP's own `unserialize` skip otherwise. */
export const phpAvailable = spawnSync('php', ['-v'], { stdio: 'ignore' }).status === 0;

// Reads a serialized value on stdin with PHP's own unserialize (failing loudly when PHP refuses it),
// and writes it back as JSON: stdClass records as objects, lists as arrays. Also reports the PHP type
// of the envelope and the class of the response, which JSON alone would hide.
const SCRIPT = `
$in = stream_get_contents(STDIN);
$v = unserialize($in);
if ($v === false && $in !== serialize(false)) { fwrite(STDERR, "unserialize refused the input"); exit(3); }
$r = is_array($v) && array_key_exists('response', $v) ? $v['response'] : null;
echo json_encode(['type' => gettype($v), 'response_class' => is_object($r) ? get_class($r) : null, 'value' => $v]);
`;

export interface Unserialized {
  type: string;
  response_class: string | null;
  value: unknown;
}

export function phpUnserialize(serialized: string): Unserialized {
  const run = spawnSync('php', ['-r', SCRIPT], { input: serialized, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`php could not unserialize ${JSON.stringify(serialized)}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Unserialized;
}

/**
 * Evaluates `$v<access>` (e.g. `['response']['active']`, `['response']->id`) on the unserialized
 * value, as a PHP consumer's code reads it, and answers the result as JSON. Array access on a
 * stdClass object is a fatal error in PHP: that is reported as a thrown error, as it would break
 * the consumer.
 */
export function phpAccess(serialized: string, access: string): unknown {
  const script = `$v = unserialize(stream_get_contents(STDIN)); echo json_encode($v${access});`;
  const run = spawnSync('php', ['-d', 'display_errors=stderr', '-r', script], { input: serialized, encoding: 'utf8' });
  if (run.status !== 0 || run.stderr) throw new Error(`php could not read $v${access} of ${JSON.stringify(serialized)}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
