<?php
/*
 * A third-party integration written against the Tally API contract alone, in plain PHP 8.2 with no
 * extension beyond the standard ones: file_get_contents with a stream context, http_build_query,
 * header authentication. The spec consumer.spec.ts runs it against a real server:
 *
 *   php consumer.php <base_url> <api_user> <api_key>
 *
 * It prints one JSON object of what each step observed; the spec checks it.
 */
declare(strict_types=1);

final readonly class ApiResult
{
    public function __construct(public int $status, public string $raw, public mixed $body) {}

    /** The method's answer, or null when the call failed. */
    public function response(): mixed
    {
        return $this->status === 200 && is_array($this->body) ? ($this->body['response'] ?? null) : null;
    }

    /** False on success; else the body's `errors`, or the whole error body. */
    public function errors(): array|false
    {
        if ($this->status === 200) {
            return false;
        }
        return $this->body['errors'] ?? ['error' => $this->body];
    }
}

final class TallyApi
{
    public function __construct(
        private readonly string $baseUrl,
        private readonly string $user,
        private readonly string $key,
        private readonly bool $basicAuth = false,
    ) {}

    public function get(string $model, string $method, array $params = [], string $format = 'json'): ApiResult
    {
        return $this->call('GET', $model, $method, $params, $format);
    }

    public function post(string $model, string $method, array $params = [], string $format = 'json'): ApiResult
    {
        return $this->call('POST', $model, $method, $params, $format);
    }

    public function put(string $model, string $method, array $params = [], string $format = 'json'): ApiResult
    {
        return $this->call('PUT', $model, $method, $params, $format);
    }

    public function delete(string $model, string $method, array $params = [], string $format = 'json'): ApiResult
    {
        return $this->call('DELETE', $model, $method, $params, $format);
    }

    /** GET and DELETE put the parameters in the query string, POST and PUT in a form body: where the server reads them. */
    private function call(string $verb, string $model, string $method, array $params, string $format): ApiResult
    {
        $url = rtrim($this->baseUrl, '/') . "/api/{$model}/{$method}.{$format}";
        $query = http_build_query($params);
        $headers = $this->basicAuth
            ? ['Authorization: Basic ' . base64_encode("{$this->user}:{$this->key}")]
            : ["SERVICE-API-USER: {$this->user}", "SERVICE-API-KEY: {$this->key}"];
        $options = ['method' => $verb, 'ignore_errors' => true, 'timeout' => 30];
        if ($verb === 'GET' || $verb === 'DELETE') {
            if ($query !== '') {
                $url .= '?' . $query;
            }
        } else {
            $headers[] = 'Content-Type: application/x-www-form-urlencoded';
            $options['content'] = $query;
        }
        $options['header'] = implode("\r\n", $headers);
        $raw = @file_get_contents($url, false, stream_context_create(['http' => $options]));
        if ($raw === false) {
            throw new RuntimeException("Cannot reach the Tally API at {$url}");
        }
        $status = 0;
        foreach ($http_response_header as $line) {
            if (preg_match('{^HTTP/\S+\s+(\d{3})}', $line, $m)) {
                $status = (int) $m[1];
            }
        }
        $body = $format === 'json' ? json_decode($raw, true) : ($format === 'php' ? unserialize($raw, ['allowed_classes' => [stdClass::class]]) : null);
        return new ApiResult($status, $raw, $body);
    }
}

[$script, $baseUrl, $user, $key] = $argv + [null, null, null, null];
if ($key === null) {
    fwrite(STDERR, "usage: php consumer.php <base_url> <api_user> <api_key>\n");
    exit(2);
}
$api = new TallyApi($baseUrl, $user, $key);
$seen = [];

$added = $api->post('users', 'add', ['vars' => ['username' => 'php_consumer', 'new_password' => 'secret1', 'confirm_password' => 'secret1']]);
$id = $added->response();
$seen['add'] = ['status' => $added->status, 'id_is_int' => is_int($id), 'errors' => $added->errors()];

$got = $api->get('users', 'get', ['user_id' => $id]);
$seen['get'] = ['status' => $got->status, 'username' => $got->response()['username'] ?? null, 'has_password' => array_key_exists('password', $got->response() ?? [])];

$edited = $api->put('users', 'edit', ['user_id' => $id, 'vars' => ['username' => 'php consumer & co']]);
$seen['edit'] = ['status' => $edited->status, 'username' => $edited->response()['username'] ?? null];

// type=any answers true only for a user linked to a staff member, client or contact, as the reference.
$client = $api->post('clients', 'add', ['vars' => ['first_name' => 'Php', 'last_name' => 'Consumer', 'email' => 'php@example.com']])->response();
$linked = $api->post('contacts', 'add', ['vars' => ['client_id' => $client, 'first_name' => 'Php', 'last_name' => 'Login', 'email' => 'login@example.com', 'user_id' => $id]]);
$auth = $api->post('users', 'auth', ['username' => 'php consumer & co', 'vars' => ['username' => 'php consumer & co', 'password' => 'secret1'], 'type' => 'any']);
$seen['auth'] = ['linked' => $linked->status, 'status' => $auth->status, 'response' => $auth->response()];

$cipher = $api->post('encryption', 'systemEncrypt', ['value' => 'hello from PHP'])->response();
$plain = $api->post('encryption', 'systemDecrypt', ['value' => $cipher])->response();
$seen['encryption'] = ['round_trip' => $plain, 'base64' => is_string($cipher) && base64_decode($cipher, true) !== false];

$serialized = $api->get('users', 'get', ['user_id' => $id], 'php');
$record = is_array($serialized->body) ? $serialized->body['response'] : null;
$seen['php_format'] = ['status' => $serialized->status, 'class' => is_object($record) ? get_class($record) : gettype($record), 'username' => $record->username ?? null];

$xml = $api->get('users', 'get', ['user_id' => $id], 'xml');
$seen['xml_format'] = ['status' => $xml->status, 'has_root' => str_contains($xml->raw, '<users>'), 'has_username' => str_contains($xml->raw, '<username>php consumer &amp; co</username>')];

$invalid = $api->post('users', 'add', ['vars' => ['username' => '', 'new_password' => 'secret1', 'confirm_password' => 'secret1']]);
$seen['invalid'] = ['status' => $invalid->status, 'errors' => $invalid->errors(), 'message' => $invalid->body['message'] ?? null];

$flat = $api->post('users', 'add', ['username' => 'flat']);
$seen['flat_fields'] = ['status' => $flat->status, 'errors' => $flat->errors()];

$lines = [];
for ($i = 0; $i < 300; $i++) {
    $lines[] = ['description' => "Line {$i}: support & hosting", 'amount' => sprintf('%.4f', $i * 1.5), 'qty' => $i + 1, 'tags' => ['a', 'b']];
}
$echo = $api->post('sdk_echo', 'echo', ['vars' => ['lines' => $lines, 'delivery' => ['email'], 'paid' => true]]);
$echoed = $echo->response();
$seen['nested'] = [
    'status' => $echo->status,
    'count' => is_array($echoed['lines'] ?? null) ? count($echoed['lines']) : null,
    'is_list' => array_is_list($echoed['lines'] ?? ['x' => 1]),
    'last' => end($echoed['lines']) ?: null,
    'delivery' => $echoed['delivery'] ?? null,
    'paid' => $echoed['paid'] ?? null,
];

$basic = new TallyApi($baseUrl, $user, $key, basicAuth: true);
$seen['basic_auth'] = ['status' => $basic->get('users', 'get', ['user_id' => $id])->status];

$wrong = new TallyApi($baseUrl, $user, 'not-the-key');
$denied = $wrong->get('users', 'get', ['user_id' => $id]);
$seen['wrong_key'] = ['status' => $denied->status, 'errors' => $denied->errors()];

$deleted = $api->delete('users', 'delete', ['user_id' => $id]);
$seen['delete'] = ['status' => $deleted->status, 'after' => $api->get('users', 'get', ['user_id' => $id])->response()];

echo json_encode($seen, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
