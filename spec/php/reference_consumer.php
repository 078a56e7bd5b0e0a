<?php
/*
 * An existing consumer of the reference system's API, written the way the reference's own PHP SDK
 * works: parameters encoded with http_build_query (GET in the query string, POST/PUT as a form
 * body), credentials as BLESTA-API-USER/BLESTA-API-KEY headers (its SDK since the reference's
 * 5.11), HTTP Basic (its 2013 SDK) or Tally's SERVICE-API-* headers, JSON decoded into stdClass
 * objects, and a result object with response(), errors(), responseCode() and raw().
 *
 *   php reference_consumer.php <base_url> <api_user> <api_key> <other_company_user> <other_company_key> <auth>
 *
 * <auth> is headers, basic or service. It drives every method of the models Tally shares with the
 * reference (REFERENCE-MODELS.md §1) and checks each record field by field against §2, then prints
 * one JSON object: `calls` (each call's status and whether it answered as the reference would),
 * `shapes` (fields a record lacks) and `facts` (values the spec compares).
 */
declare(strict_types=1);

/** As the reference SDK's response class. */
final class ReferenceResponse
{
    private mixed $formatted;

    public function __construct(private readonly string $raw, private readonly int $code)
    {
        $this->formatted = json_decode($raw);
    }

    public function response(): mixed
    {
        return is_object($this->formatted) && property_exists($this->formatted, 'response') ? $this->formatted->response : null;
    }

    public function errors(): mixed
    {
        if ($this->code === 200) {
            return false;
        }
        return is_object($this->formatted) && isset($this->formatted->errors) ? $this->formatted->errors : (object) ['error' => $this->formatted];
    }

    public function responseCode(): int
    {
        return $this->code;
    }

    public function raw(): string
    {
        return $this->raw;
    }
}

/** As the reference SDK's API class: get/post/put/delete($model, $method, $args). */
final class ReferenceApi
{
    public function __construct(private readonly string $url, private readonly string $user, private readonly string $key, private readonly string $auth) {}

    public function get(string $model, string $method, array $args = []): ReferenceResponse
    {
        return $this->submit($model, $method, $args, 'GET');
    }

    public function post(string $model, string $method, array $args = []): ReferenceResponse
    {
        return $this->submit($model, $method, $args, 'POST');
    }

    public function put(string $model, string $method, array $args = []): ReferenceResponse
    {
        return $this->submit($model, $method, $args, 'PUT');
    }

    /** The reference SDK sends DELETE arguments in the body; Tally reads a DELETE's query string (see deleteWithBody). */
    public function delete(string $model, string $method, array $args = []): ReferenceResponse
    {
        return $this->submit($model, $method, $args, 'DELETE');
    }

    public function deleteWithBody(string $model, string $method, array $args = []): ReferenceResponse
    {
        return $this->submit($model, $method, $args, 'DELETE', true);
    }

    public function submit(string $model, string $method, array $args, string $action, bool $bodyForDelete = false): ReferenceResponse
    {
        $url = rtrim($this->url, '/') . '/api/' . $model . '/' . $method . '.json';
        $query = http_build_query($args);
        $headers = match ($this->auth) {
            'basic' => ['Authorization: Basic ' . base64_encode($this->user . ':' . $this->key)],
            'service' => ['SERVICE-API-USER: ' . $this->user, 'SERVICE-API-KEY: ' . $this->key],
            default => ['BLESTA-API-USER: ' . $this->user, 'BLESTA-API-KEY: ' . $this->key],
        };
        $options = ['method' => $action, 'ignore_errors' => true, 'timeout' => 30];
        if ($action === 'GET' || ($action === 'DELETE' && !$bodyForDelete)) {
            $url .= $query !== '' ? '?' . $query : '';
        } else {
            $headers[] = 'Content-Type: application/x-www-form-urlencoded';
            $options['content'] = $query;
        }
        $options['header'] = implode("\r\n", $headers);
        $raw = @file_get_contents($url, false, stream_context_create(['http' => $options]));
        if ($raw === false) {
            throw new RuntimeException("Cannot reach {$url}");
        }
        $code = 0;
        foreach ($http_response_header as $line) {
            if (preg_match('{^HTTP/\S+\s+(\d{3})}', $line, $m)) {
                $code = (int) $m[1];
            }
        }
        return new ReferenceResponse($raw, $code);
    }
}

[, $baseUrl, $user, $key, $otherUser, $otherKey, $auth] = $argv + array_fill(0, 7, null);
if ($auth === null) {
    fwrite(STDERR, "usage: php reference_consumer.php <base_url> <user> <key> <other_user> <other_key> <headers|basic|service>\n");
    exit(2);
}
$api = new ReferenceApi($baseUrl, $user, $key, $auth);
$other = new ReferenceApi($baseUrl, $otherUser, $otherKey, $auth);
$calls = [];
$shapes = [];
$facts = [];

/** Records a call: its status, and whether it answered as expected (a status and an optional test of the response). */
function expect_call(string $label, ReferenceResponse $res, int $status = 200, ?callable $test = null): mixed
{
    global $calls;
    $ok = $res->responseCode() === $status && ($test === null || $test($res->response(), $res->errors()));
    $calls[$label] = ['status' => $res->responseCode(), 'ok' => $ok] + ($ok ? [] : ['raw' => substr($res->raw(), 0, 400)]);
    return $res->response();
}

/** Records which of the reference's fields (REFERENCE-MODELS.md §2) a record lacks. */
function expect_shape(string $record, mixed $value, array $fields): void
{
    global $shapes;
    $shapes[$record] = is_object($value) ? array_values(array_diff($fields, array_keys(get_object_vars($value)))) : ['(not a record: ' . gettype($value) . ')'];
}

$isInt = fn ($v) => is_int($v);
$isList = fn ($v) => is_array($v);
$isFalse = fn ($v) => $v === false;
$isTrue = fn ($v) => $v === true;
$isMoney = fn ($v) => is_string($v) && preg_match('/^-?\d+\.\d{4}$/', $v) === 1;
$run = bin2hex(random_bytes(3));

// ---- client_groups -------------------------------------------------------------------------
$company = 1;
// What many of the reference's consumers do first on a fresh installation: add a client to group 1,
// the default group the reference creates with every company (clients added without a group join it).
expect_call('clients/add (client_group_id 1, fresh installation)', $api->post('clients', 'add', ['vars' => ['client_group_id' => 1, 'first_name' => 'First', 'last_name' => 'Client', 'email' => "first-{$run}@example.com"]]), 200, $isInt);
$default = 1;
$group = expect_call('client_groups/add', $api->post('client_groups', 'add', ['vars' => ['company_id' => $company, 'name' => 'Resellers', 'color' => 'ff0000']]), 200, $isInt);
expect_call('client_groups/edit', $api->put('client_groups', 'edit', ['client_group_id' => $group, 'vars' => ['description' => 'Wholesale']]));
expect_shape('client_group', expect_call('client_groups/get', $api->get('client_groups', 'get', ['client_group_id' => $group])), ['id', 'company_id', 'name', 'description', 'color']);
expect_call('client_groups/getAll', $api->get('client_groups', 'getAll', ['company_id' => $company]), 200, fn ($v) => is_array($v) && count($v) >= 1);
expect_call('client_groups/getDefault', $api->get('client_groups', 'getDefault', ['company_id' => $company]), 200, fn ($v) => is_object($v) && $v->id === $default);
expect_call('client_groups/getList', $api->get('client_groups', 'getList', ['company_id' => $company, 'page' => 1, 'order_by' => ['name' => 'ASC']]), 200, $isList);
expect_call('client_groups/getListCount', $api->get('client_groups', 'getListCount', ['company_id' => $company]), 200, $isInt);
expect_call('client_groups/setSetting', $api->post('client_groups', 'setSetting', ['client_group_id' => $group, 'key' => 'inv_days_before_renewal', 'value' => '7']));
expect_call('client_groups/setSettings', $api->post('client_groups', 'setSettings', ['client_group_id' => $group, 'vars' => ['language' => 'en_us', 'autodebit' => 'true']]));
expect_call('client_groups/getSetting', $api->get('client_groups', 'getSetting', ['client_group_id' => $group, 'key' => 'inv_days_before_renewal']), 200, fn ($v) => is_object($v) && $v->value === '7');
expect_call('client_groups/getSettings', $api->get('client_groups', 'getSettings', ['client_group_id' => $group, 'ignore_inheritence' => 'true']), 200, fn ($v) => is_array($v) && count($v) === 3);
expect_call('client_groups/unsetSetting', $api->delete('client_groups', 'unsetSetting', ['client_group_id' => $group, 'key' => 'autodebit']));
expect_call('client_groups/get (missing)', $api->get('client_groups', 'get', ['client_group_id' => 999999]), 200, $isFalse);

// ---- clients -------------------------------------------------------------------------------
$login = expect_call('users/add', $api->post('users', 'add', ['vars' => ['username' => "ref-{$run}", 'new_password' => 'secret12', 'confirm_password' => 'secret12']]), 200, $isInt);
$bare = expect_call('clients/add (bare, as the reference)', $api->post('clients', 'add', ['vars' => ['user_id' => $login, 'client_group_id' => $group, 'id_code' => '7001']]), 200, $isInt);
$created = expect_call('clients/create', $api->post('clients', 'create', ['vars' => [
    'username' => "signup-{$run}", 'new_password' => 'secret12', 'confirm_password' => 'secret12', 'client_group_id' => $group,
    'first_name' => 'Grace', 'last_name' => 'Hopper', 'email' => 'grace@example.com', 'company' => 'Navy', 'address1' => '1 Main St',
    'city' => 'Arlington', 'state' => 'VA', 'zip' => '22201', 'country' => 'US', 'title' => 'Rear Admiral',
    'numbers' => [['number' => '+1 555 0100', 'type' => 'phone', 'location' => 'work']], 'settings' => ['language' => 'en_us'],
]]), 200, fn ($v) => is_object($v) && is_int($v->id));
$client = $created->id ?? null;
$client2 = expect_call('clients/add', $api->post('clients', 'add', ['vars' => ['first_name' => 'Alan', 'last_name' => 'Turing', 'email' => 'alan@example.com', 'status' => 'active']]), 200, $isInt);
expect_call('clients/edit', $api->put('clients', 'edit', ['client_id' => $bare, 'vars' => ['first_name' => 'Bare', 'last_name' => 'Client', 'email' => 'bare@example.com', 'status' => 'inactive']]));
$record = expect_call('clients/get', $api->get('clients', 'get', ['client_id' => $client]), 200, fn ($v) => is_object($v) && is_object($v->settings ?? null));
expect_shape('client', $record, ['id', 'id_format', 'id_value', 'user_id', 'client_group_id', 'primary_account_id', 'primary_account_type', 'status', 'id_code', 'contact_id', 'first_name', 'last_name', 'company', 'email', 'address1', 'address2', 'city', 'state', 'zip', 'country', 'settings']);
$facts['client'] = ['language' => $record->settings->language ?? null, 'inherited' => $record->settings->inv_days_before_renewal ?? null, 'group' => $record->client_group_id ?? null];
expect_call('clients/get (no settings)', $api->get('clients', 'get', ['client_id' => $client, 'get_settings' => 'false']), 200, fn ($v) => is_object($v) && !isset($v->settings));
expect_call('clients/get (missing)', $api->get('clients', 'get', ['client_id' => 999999]), 200, $isFalse);
$facts['bare'] = expect_call('clients/getByUserId', $api->get('clients', 'getByUserId', ['user_id' => $login]), 200, fn ($v) => is_object($v));
expect_call('clients/getList', $api->get('clients', 'getList', ['status' => 'active', 'page' => 1, 'order_by' => ['id_code' => 'DESC']]), 200, $isList);
expect_call('clients/getListCount', $api->get('clients', 'getListCount', ['status' => 'inactive']), 200, fn ($v) => $v === 1);
expect_call('clients/getAll', $api->get('clients', 'getAll', ['client_group_id' => $group]), 200, fn ($v) => is_array($v) && count($v) === 2);
expect_call('clients/getStatusCount', $api->get('clients', 'getStatusCount'), 200, $isInt);
expect_call('clients/getStatusTypes', $api->get('clients', 'getStatusTypes'), 200, fn ($v) => isset($v->fraud));
expect_call('clients/search', $api->get('clients', 'search', ['query' => 'hopper']), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('clients/getSearchCount', $api->get('clients', 'getSearchCount', ['query' => '7001']), 200, fn ($v) => $v === 1);
expect_call('clients/setSetting', $api->post('clients', 'setSetting', ['client_id' => $client, 'key' => 'tax_id', 'value' => 'GB123', 'encrypted' => 'true']));
expect_call('clients/setSettings', $api->post('clients', 'setSettings', ['client_id' => $client, 'vars' => ['inv_method' => 'paper', 'ignored' => 'x'], 'value_keys' => ['inv_method']]));
expect_call('clients/setClientSettings', $api->post('clients', 'setClientSettings', ['client_id' => $client, 'vars' => ['default_currency' => 'EUR', 'autodebit' => 'false']]));
expect_call('clients/getSetting', $api->get('clients', 'getSetting', ['client_id' => $client, 'key' => 'tax_id']), 200, fn ($v) => is_object($v) && $v->value === 'GB123' && $v->encrypted === true);
expect_call('clients/getSettings', $api->get('clients', 'getSettings', ['client_id' => $client]), 200, fn ($v) => is_array($v)
    && in_array('inv_method', array_column($v, 'key'), true) && !in_array('ignored', array_column($v, 'key'), true)
    // autodebit is not client-editable: setClientSettings leaves it to be inherited (the recurring-billing catalogue gives the company a default).
    && !in_array('autodebit', array_column(array_filter($v, fn ($s) => $s->level === 'client'), 'key'), true));
expect_call('clients/unsetSetting', $api->delete('clients', 'unsetSetting', ['client_id' => $client, 'key' => 'inv_method']));
expect_call('clients/getSetting (missing)', $api->get('clients', 'getSetting', ['client_id' => $client, 'key' => 'inv_method']), 200, $isFalse);
$note = expect_call('clients/addNote', $api->post('clients', 'addNote', ['client_id' => $client, 'staff_id' => 0, 'vars' => ['title' => 'Called', 'description' => 'About the renewal', 'stickied' => 'true']]), 200, $isInt);
expect_call('clients/editNote', $api->put('clients', 'editNote', ['note_id' => $note, 'vars' => ['title' => 'Called back']]));
expect_shape('client_note', expect_call('clients/getNote', $api->get('clients', 'getNote', ['note_id' => $note])), ['id', 'client_id', 'staff_id', 'title', 'description', 'stickied', 'date_added', 'date_updated']);
expect_call('clients/getNoteList', $api->get('clients', 'getNoteList', ['client_id' => $client, 'page' => 1, 'order_by' => ['date_added' => 'DESC']]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('clients/getNoteListCount', $api->get('clients', 'getNoteListCount', ['client_id' => $client]), 200, fn ($v) => $v === 1);
expect_call('clients/getAllStickyNotes', $api->get('clients', 'getAllStickyNotes', ['client_id' => $client, 'max_limit' => 5]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('clients/unstickyNote', $api->post('clients', 'unstickyNote', ['note_id' => $note]));
expect_call('clients/getAllStickyNotes (after)', $api->get('clients', 'getAllStickyNotes', ['client_id' => $client]), 200, fn ($v) => $v === []);
expect_call('clients/deleteNote', $api->delete('clients', 'deleteNote', ['note_id' => $note]));
expect_call('clients/getNote (missing)', $api->get('clients', 'getNote', ['note_id' => $note]), 200, $isFalse);

$field = expect_call('clients/addCustomField', $api->post('clients', 'addCustomField', ['vars' => ['client_group_id' => $group, 'name' => 'VAT number', 'type' => 'text', 'regex' => '/^[A-Z]{2}[0-9]{5,12}$/', 'encrypted' => 1]]), 200, $isInt);
$select = expect_call('clients/addCustomField (select)', $api->post('clients', 'addCustomField', ['vars' => ['name' => 'Segment', 'type' => 'select', 'values' => ['smb' => 'Small business', 'ent' => 'Enterprise'], 'show_client' => 1]]), 200, $isInt);
expect_call('clients/addCustomField (catastrophic regex)', $api->post('clients', 'addCustomField', ['vars' => ['name' => 'Evil', 'regex' => '/^(a+)+$/']]), 400, fn ($v, $e) => isset($e->regex->format));
expect_call('clients/editCustomField', $api->put('clients', 'editCustomField', ['field_id' => $select, 'vars' => ['read_only' => 1]]), 200, fn ($v) => $v === $select);
expect_call('clients/getCustomField', $api->get('clients', 'getCustomField', ['field_id' => $select]), 200, fn ($v) => is_object($v) && $v->read_only === true && $v->values->ent === 'Enterprise');
expect_call('clients/getCustomFields', $api->get('clients', 'getCustomFields', ['company_id' => $company, 'client_group_id' => $group, 'options' => ['show_client' => 1]]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('clients/getCustomFieldTypes', $api->get('clients', 'getCustomFieldTypes'), 200, fn ($v) => isset($v->select, $v->checkbox));
expect_call('clients/setCustomField', $api->post('clients', 'setCustomField', ['field_id' => $field, 'client_id' => $client, 'value' => 'GB123456789']));
expect_call('clients/setCustomField (bad value)', $api->post('clients', 'setCustomField', ['field_id' => $select, 'client_id' => $client, 'value' => 'huge']), 400);
expect_call('clients/setCustomField (select)', $api->post('clients', 'setCustomField', ['field_id' => $select, 'client_id' => $client, 'value' => 'ent']));
expect_call('clients/getCustomFieldValues', $api->get('clients', 'getCustomFieldValues', ['client_id' => $client]), 200, fn ($v) => is_array($v) && array_map(fn ($f) => $f->value, $v) === ['GB123456789', 'ent']);
expect_call('clients/deleteCustomFieldValue', $api->delete('clients', 'deleteCustomFieldValue', ['client_field_id' => $select, 'client_id' => $client]));
expect_call('clients/deleteCustomFieldValues', $api->delete('clients', 'deleteCustomFieldValues', ['client_id' => $client]));
expect_call('clients/getCustomFieldValues (none)', $api->get('clients', 'getCustomFieldValues', ['client_id' => $client]), 200, $isFalse);
expect_call('clients/deleteCustomField', $api->delete('clients', 'deleteCustomField', ['field_id' => $select]));
expect_call('clients/getCustomField (missing)', $api->get('clients', 'getCustomField', ['field_id' => $select]), 200, $isFalse);

// ---- contacts ------------------------------------------------------------------------------
$contact = expect_call('contacts/add', $api->post('contacts', 'add', ['vars' => ['client_id' => $client, 'first_name' => 'Bill', 'last_name' => 'Ing', 'email' => 'billing@example.com', 'contact_type' => 'billing', 'numbers' => [['number' => '555-0101', 'type' => 'fax']]]]), 200, $isInt);
$edited = expect_call('contacts/edit', $api->put('contacts', 'edit', ['contact_id' => $contact, 'vars' => ['title' => 'Accounts', 'numbers' => [['number' => '555-0102', 'location' => 'mobile']]]]), 200, fn ($v) => is_object($v) && $v->title === 'Accounts');
expect_shape('contact', $edited, ['id', 'client_id', 'user_id', 'contact_type', 'contact_type_id', 'first_name', 'last_name', 'title', 'company', 'email', 'address1', 'address2', 'city', 'state', 'zip', 'country', 'date_added', 'contact_type_name', 'contact_type_is_lang']);
expect_call('contacts/get', $api->get('contacts', 'get', ['contact_id' => $contact]), 200, fn ($v) => is_object($v) && $v->email === 'billing@example.com');
expect_call('contacts/get (missing)', $api->get('contacts', 'get', ['contact_id' => 999999]), 200, $isFalse);
expect_call('contacts/getByUserId', $api->get('contacts', 'getByUserId', ['user_id' => 999999, 'client_id' => $client]), 200, $isFalse);
expect_call('contacts/getAll', $api->get('contacts', 'getAll', ['client_id' => $client, 'contact_type' => 'billing']), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('contacts/getList', $api->get('contacts', 'getList', ['client_id' => $client, 'page' => 1, 'order' => ['first_name' => 'desc']]), 200, fn ($v) => is_array($v) && ($v[0]->first_name ?? null) === 'Grace');
expect_call('contacts/getListCount', $api->get('contacts', 'getListCount', ['client_id' => $client]), 200, fn ($v) => $v === 2);
$numbers = expect_call('contacts/getNumbers', $api->get('contacts', 'getNumbers', ['contact_id' => $contact]), 200, fn ($v) => is_array($v) && count($v) === 2);
expect_shape('contact_number', $numbers[0] ?? null, ['id', 'contact_id', 'number', 'type', 'location']);
$number = expect_call('contacts/addNumber', $api->post('contacts', 'addNumber', ['contact_id' => $contact, 'vars' => ['number' => '555-0103', 'location' => 'work']]), 200, $isInt);
$facts['number_order'] = array_map(fn ($n) => $n->location, expect_call('contacts/getNumbers (work, home, mobile)', $api->get('contacts', 'getNumbers', ['contact_id' => $contact]), 200, $isList) ?? []);
expect_call('contacts/editNumber', $api->put('contacts', 'editNumber', ['contact_number_id' => $number, 'vars' => ['type' => 'fax']]));
expect_call('contacts/getNumber', $api->get('contacts', 'getNumber', ['contact_number_id' => $number]), 200, fn ($v) => is_object($v) && $v->type === 'fax');
expect_call('contacts/deleteNumber', $api->delete('contacts', 'deleteNumber', ['contact_number_id' => $number]));
expect_call('contacts/getNumber (missing)', $api->get('contacts', 'getNumber', ['contact_number_id' => $number]), 200, $isFalse);
expect_call('contacts/getContactTypes', $api->get('contacts', 'getContactTypes'), 200, fn ($v) => isset($v->primary, $v->billing, $v->other));
expect_call('contacts/getNumberTypes', $api->get('contacts', 'getNumberTypes'), 200, fn ($v) => isset($v->phone, $v->fax));
expect_call('contacts/getNumberLocations', $api->get('contacts', 'getNumberLocations'), 200, fn ($v) => isset($v->home, $v->work, $v->mobile));
$ctype = expect_call('contacts/addType', $api->post('contacts', 'addType', ['vars' => ['name' => 'Technical', 'company_id' => $company]]), 200, $isInt);
expect_call('contacts/editType', $api->put('contacts', 'editType', ['contact_type_id' => $ctype, 'vars' => ['name' => 'Tech']]));
expect_call('contacts/getType', $api->get('contacts', 'getType', ['contact_type_id' => $ctype]), 200, fn ($v) => is_object($v) && $v->name === 'Tech' && $v->is_lang === false);
expect_call('contacts/getTypes', $api->get('contacts', 'getTypes', ['company_id' => $company]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('contacts/edit (contact_type_id)', $api->put('contacts', 'edit', ['contact_id' => $contact, 'vars' => ['contact_type' => 'other', 'contact_type_id' => $ctype]]), 200, fn ($v) => is_object($v) && $v->contact_type_id === $ctype && $v->contact_type_name === 'Tech');
expect_call('contacts/edit (unknown contact_type_id)', $api->put('contacts', 'edit', ['contact_id' => $contact, 'vars' => ['contact_type_id' => 999999]]), 400);
expect_call('contacts/deleteType', $api->delete('contacts', 'deleteType', ['contact_type_id' => $ctype]));
expect_call('contacts/get (type gone)', $api->get('contacts', 'get', ['contact_id' => $contact]), 200, fn ($v) => is_object($v) && $v->contact_type_id === null && $v->contact_type_name === 'Other');
expect_call('contacts/getType (missing)', $api->get('contacts', 'getType', ['contact_type_id' => $ctype]), 200, $isFalse);
expect_call('contacts/delete', $api->delete('contacts', 'delete', ['contact_id' => $contact]));

// ---- currencies and taxes ------------------------------------------------------------------
expect_call('currencies/add', $api->post('currencies', 'add', ['vars' => ['code' => 'JPY', 'company_id' => $company, 'precision' => 0, 'prefix' => '¥', 'exchange_rate' => '150']]));
expect_call('currencies/edit', $api->put('currencies', 'edit', ['currency_code' => 'JPY', 'company_id' => $company, 'vars' => ['suffix' => ' JPY']]));
expect_shape('currency', expect_call('currencies/get', $api->get('currencies', 'get', ['currency_code' => 'JPY', 'company_id' => $company])), ['code', 'company_id', 'format', 'precision', 'prefix', 'suffix', 'exchange_rate']);
expect_call('currencies/getAll', $api->get('currencies', 'getAll', ['company_id' => $company]), 200, fn ($v) => is_array($v) && count($v) >= 4);
expect_call('currencies/getList', $api->get('currencies', 'getList', ['company_id' => $company, 'page' => 1, 'order_by' => ['code' => 'DESC']]), 200, fn ($v) => is_array($v) && $v[0]->code === 'USD');
expect_call('currencies/getListCount', $api->get('currencies', 'getListCount', ['company_id' => $company]), 200, $isInt);
expect_call('currencies/convert', $api->get('currencies', 'convert', ['amount' => '300', 'from_currency' => 'JPY', 'to_currency' => 'USD', 'company_id' => $company]), 200, fn ($v) => $v === '2.0000');
expect_call('currencies/getFormats', $api->get('currencies', 'getFormats'), 200, fn ($v) => ($v->{'#.###,##'} ?? null) === '1.234,56');
expect_call('currencies/toCurrency', $api->get('currencies', 'toCurrency', ['value' => 1234.5, 'currency' => 'EUR', 'company_id' => $company, 'code' => 'true']), 200, fn ($v) => $v === '€1.234,50 EUR');
expect_call('currencies/toCurrency (significant)', $api->get('currencies', 'toCurrency', ['value' => '2.5', 'currency' => 'USD', 'decimals' => 4, 'significant_decimals' => 'true']), 200, fn ($v) => $v === '$2.50');
expect_call('currencies/toCurrencyValue', $api->get('currencies', 'toCurrencyValue', ['value' => '-1234.567', 'currency' => 'USD', 'with_separator' => 'false']), 200, fn ($v) => $v === '-1234.57');
expect_call('currencies/toDecimal', $api->get('currencies', 'toDecimal', ['value' => '-$1,234.50', 'currency' => 'USD']), 200, fn ($v) => $v === '-1234.50');
expect_call('currencies/toDecimal (not an amount)', $api->get('currencies', 'toDecimal', ['value' => '12abc', 'currency' => 'USD']), 400);
expect_call('currencies/delete', $api->delete('currencies', 'delete', ['currency_code' => 'JPY', 'company_id' => $company]));
expect_call('currencies/get (missing)', $api->get('currencies', 'get', ['currency_code' => 'JPY', 'company_id' => $company]), 200, $isFalse);
$tax = expect_call('taxes/add', $api->post('taxes', 'add', ['vars' => ['company_id' => $company, 'level' => 1, 'name' => 'Sales tax', 'amount' => '10', 'country' => 'US', 'state' => 'VA']]), 200, $isInt);
expect_call('taxes/edit', $api->put('taxes', 'edit', ['tax_id' => $tax, 'vars' => ['name' => 'VA sales tax']]), 200, fn ($v) => $v === $tax);
expect_shape('tax', expect_call('taxes/get', $api->get('taxes', 'get', ['tax_id' => $tax]), 200, fn ($v) => is_object($v) && $v->name === 'VA sales tax'), ['id', 'company_id', 'level', 'name', 'amount', 'type', 'country', 'state', 'status']);
expect_call('taxes/getAll', $api->get('taxes', 'getAll', ['company_id' => $company]), 200, $isList);
expect_call('taxes/getTaxLevels', $api->get('taxes', 'getTaxLevels'), 200);
expect_call('taxes/getTaxTypes', $api->get('taxes', 'getTaxTypes'), 200, fn ($v) => isset($v->inclusive, $v->exclusive));
expect_call('taxes/getTaxStatus', $api->get('taxes', 'getTaxStatus'), 200, fn ($v) => isset($v->active, $v->inactive));
expect_call('taxes/get (missing)', $api->get('taxes', 'get', ['tax_id' => 999999]), 200, $isFalse);

// ---- invoices ------------------------------------------------------------------------------
$invoiceVars = [
    'client_id' => $client, 'date_billed' => '2024-03-01 00:00:00 UTC', 'date_due' => '2024-03-31 00:00:00 UTC', 'currency' => 'USD', 'status' => 'active',
    'note_public' => 'Thank you for your business', 'note_private' => 'Met at the conference', 'date_autodebit' => '2024-03-25 00:00:00 UTC',
    'lines' => [['description' => 'Hosting & support', 'qty' => '2', 'amount' => '50.00', 'tax' => 'true'], ['description' => 'Setup', 'qty' => '1 1/2', 'amount' => '10']],
    'delivery' => ['email'],
];
$invoice = expect_call('invoices/add', $api->post('invoices', 'add', ['vars' => $invoiceVars]), 200, $isInt);
$got = expect_call('invoices/get', $api->get('invoices', 'get', ['invoice_id' => $invoice]), 200, fn ($v) => is_object($v) && is_array($v->line_items));
expect_shape('invoice', $got, ['id', 'client_id', 'date_billed', 'date_due', 'date_closed', 'date_autodebit', 'status', 'currency', 'note_public', 'note_private', 'id_code', 'id_value', 'subtotal', 'total', 'line_items', 'due', 'paid', 'taxes', 'delivery']);
expect_shape('line_item', $got->line_items[0] ?? null, ['id', 'service_id', 'description', 'qty', 'amount', 'order', 'tax']);
$facts['invoice'] = ['subtotal' => $got->subtotal ?? null, 'total' => $got->total ?? null, 'notes' => [$got->note_public ?? null, $got->note_private ?? null], 'qty' => $got->line_items[1]->qty ?? null];
$lineIds = array_map(fn ($l) => $l->id, $got->line_items ?? []);
expect_call('invoices/edit', $api->put('invoices', 'edit', ['invoice_id' => $invoice, 'vars' => ['lines' => [['id' => $lineIds[1] ?? 0, 'description' => '', 'amount' => ''], ['description' => 'Domain', 'amount' => '12']]]]), 200, fn ($v) => $v === $invoice);
expect_call('invoices/getLineItems', $api->get('invoices', 'getLineItems', ['invoice_id' => $invoice]), 200, fn ($v) => is_array($v) && array_map(fn ($l) => $l->description, $v) === ['Hosting & support', 'Domain']);
expect_call('invoices/getSubtotal', $api->get('invoices', 'getSubtotal', ['invoice_id' => $invoice]), 200, fn ($v) => $v === '112.0000');
expect_call('invoices/getTotal', $api->get('invoices', 'getTotal', ['invoice_id' => $invoice]), 200, fn ($v) => $v === '122.0000');
expect_call('invoices/getPaid', $api->get('invoices', 'getPaid', ['invoice_id' => $invoice]), 200, fn ($v) => $v === '0.0000');
expect_call('invoices/getAutodebitDate', $api->get('invoices', 'getAutodebitDate', ['invoice_id' => $invoice]), 200, fn ($v) => $v === '2024-03-25 00:00:00');
expect_call('invoices/getList', $api->get('invoices', 'getList', ['client_id' => $client, 'status' => 'open', 'page' => 1, 'order_by' => ['date_due' => 'ASC']]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('invoices/getListCount', $api->get('invoices', 'getListCount', ['client_id' => $client, 'status' => 'past_due']), 200, fn ($v) => $v === 1);
expect_call('invoices/getAll', $api->get('invoices', 'getAll', ['client_id' => $client]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('invoices/getStatusCount', $api->get('invoices', 'getStatusCount', ['client_id' => $client, 'status' => 'to_autodebit']), 200, fn ($v) => $v === 1);
expect_call('invoices/search', $api->get('invoices', 'search', ['query' => 'domain']), 200, fn ($v) => is_array($v) && count($v) >= 1);
expect_call('invoices/getSearchCount', $api->get('invoices', 'getSearchCount', ['query' => 'domain']), 200, $isInt);
expect_call('invoices/amountDue', $api->get('invoices', 'amountDue', ['client_id' => $client, 'currency' => 'USD']), 200, fn ($v) => $v === '122.0000');
$hash = expect_call('invoices/createPayHash', $api->get('invoices', 'createPayHash', ['client_id' => $client, 'invoice_id' => $invoice]), 200, fn ($v) => is_string($v));
expect_call('invoices/verifyPayHash', $api->get('invoices', 'verifyPayHash', ['client_id' => $client, 'invoice_id' => $invoice, 'hash' => $hash]), 200, $isTrue);
expect_call('invoices/verifyPayHash (forged)', $api->get('invoices', 'verifyPayHash', ['client_id' => $client2, 'invoice_id' => $invoice, 'hash' => $hash]), 200, $isFalse);
expect_call('invoices/getTaxRules', $api->get('invoices', 'getTaxRules', ['client_id' => $client]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->amount === '10.0000');
expect_call('invoices/setMeta', $api->post('invoices', 'setMeta', ['invoice_id' => $invoice, 'key' => 'crm_id', 'value' => 'CRM-42']));
expect_call('invoices/setMeta (a set)', $api->post('invoices', 'setMeta', ['invoice_id' => $invoice, 'key' => 'shipping', 'value' => ['carrier' => 'ups', 'boxes' => '2']]));
expect_call('invoices/getMeta', $api->get('invoices', 'getMeta', ['invoice_id' => $invoice]), 200, fn ($v) => is_array($v) && count($v) === 2 && $v[1]->value->carrier === 'ups');
expect_call('invoices/getMeta (one)', $api->get('invoices', 'getMeta', ['invoice_id' => $invoice, 'key' => 'crm_id']), 200, fn ($v) => is_object($v) && $v->value === 'CRM-42');
expect_call('invoices/unsetMeta', $api->delete('invoices', 'unsetMeta', ['invoice_id' => $invoice, 'key' => 'crm_id']));
expect_call('invoices/getMeta (unset)', $api->get('invoices', 'getMeta', ['invoice_id' => $invoice, 'key' => 'crm_id']), 200, $isFalse);
expect_call('invoices/getPricingPeriods', $api->get('invoices', 'getPricingPeriods'), 200, fn ($v) => isset($v->month));
expect_call('invoices/getStatuses', $api->get('invoices', 'getStatuses'), 200, fn ($v) => isset($v->proforma));
expect_call('invoices/getDeliveryMethods', $api->get('invoices', 'getDeliveryMethods'), 200, fn ($v) => isset($v->email, $v->paper));
$paper = expect_call('invoices/addDelivery', $api->post('invoices', 'addDelivery', ['invoice_id' => $invoice, 'vars' => ['method' => 'paper'], 'client_id' => $client]), 200, $isInt);
expect_call('invoices/getDelivery', $api->get('invoices', 'getDelivery', ['invoice_id' => $invoice]), 200, fn ($v) => is_array($v) && array_map(fn ($d) => $d->method, $v) === ['email', 'paper']);
expect_call('invoices/delivered', $api->post('invoices', 'delivered', ['invoice_delivery_id' => $paper, 'client_id' => $client]));
expect_call('invoices/getListCount (printed)', $api->get('invoices', 'getListCount', ['client_id' => $client, 'status' => 'printed']), 200, fn ($v) => $v === 1);
expect_call('invoices/getDeliveryListCount', $api->get('invoices', 'getDeliveryListCount', ['client_id' => $client]), 200, fn ($v) => $v === 2);
expect_call('invoices/getDeliveryList', $api->get('invoices', 'getDeliveryList', ['client_id' => $client, 'page' => 1]), 200, fn ($v) => is_array($v) && $v[0]->id === $paper && $v[0]->date_sent !== null);
expect_call('invoices/deleteDelivery', $api->delete('invoices', 'deleteDelivery', ['invoice_delivery_id' => $paper]));
expect_call('invoices/invoicedCurrencies', $api->get('invoices', 'invoicedCurrencies', ['client_id' => $client]), 200, fn ($v) => $v === ['USD']);
$a = expect_call('invoices/add (to merge)', $api->post('invoices', 'add', ['vars' => ['lines' => [['description' => 'A', 'amount' => '1'], ['description' => 'B', 'amount' => '2']]] + $invoiceVars]), 200, $isInt);
$b = expect_call('invoices/add (to merge, 2)', $api->post('invoices', 'add', ['vars' => ['lines' => [['description' => 'C', 'amount' => '4']]] + $invoiceVars]), 200, $isInt);
$merged = expect_call('invoices/merge', $api->post('invoices', 'merge', ['invoice_ids' => [$a, $b]]), 200, fn ($v) => is_int($v) && $v !== $a && $v !== $b);
expect_call('invoices/get (merged)', $api->get('invoices', 'get', ['invoice_id' => $merged]), 200, fn ($v) => is_object($v) && array_map(fn ($l) => $l->description, $v->line_items) === ['A', 'B', 'C'] && $v->subtotal === '7.0000');
expect_call('invoices/get (merged away)', $api->get('invoices', 'get', ['invoice_id' => $b]), 200, fn ($v) => is_object($v) && $v->status === 'void');
$mergedLines = $api->get('invoices', 'getLineItems', ['invoice_id' => $merged])->response() ?? [];
$split = expect_call('invoices/split', $api->post('invoices', 'split', ['invoice_id' => $merged, 'line_items' => [$mergedLines[2]->id ?? 0]]), 200, $isInt);
expect_call('invoices/getTotal (after split)', $api->get('invoices', 'getSubtotal', ['invoice_id' => $merged]), 200, fn ($v) => $v === '3.0000');
expect_call('invoices/getLineItems (split off)', $api->get('invoices', 'getLineItems', ['invoice_id' => $split]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->description === 'C' && $v[0]->id === ($mergedLines[2]->id ?? null));
expect_call('invoices/merge (into a void one: refused)', $api->post('invoices', 'merge', ['invoice_ids' => [$split], 'invoice_id' => $b]), 400, fn ($v, $e) => isset($e->invoice_id->merge));
$draft = expect_call('invoices/add (draft)', $api->post('invoices', 'add', ['vars' => ['status' => 'draft'] + $invoiceVars]), 200, $isInt);
expect_call('invoices/deleteDraft', $api->delete('invoices', 'deleteDraft', ['invoice_id' => $draft]));
expect_call('invoices/get (missing)', $api->get('invoices', 'get', ['invoice_id' => $draft]), 200, $isFalse);
expect_call('invoices/add (empty)', $api->post('invoices', 'add', ['vars' => []]), 400, fn ($v, $e) => array_keys(get_object_vars($e)) === ['client_id', 'date_billed', 'date_due', 'currency', 'lines[0][description]']);

expect_call('invoices/getTypes', $api->get('invoices', 'getTypes'), 200, fn ($v) => isset($v->standard, $v->proforma));
$rulesHere = expect_call('invoices/getTaxRulesByLocation', $api->get('invoices', 'getTaxRulesByLocation', ['company_id' => $company, 'country' => 'US', 'state' => 'VA']), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->amount === '10.0000');
expect_call('invoices/getTaxTotals', $api->get('invoices', 'getTaxTotals', ['line_subtotal' => '50.00', 'taxes' => array_map(fn ($t) => (array) $t, $rulesHere)]), 200, fn ($v) => is_object($v) && $v->tax_total === '5.0000' && $v->line_total_w_tax === '55.0000');
expect_call('invoices/makeLinesFromItems', $api->get('invoices', 'makeLinesFromItems', ['vars' => ['items' => [['description' => 'Widget', 'qty' => 3, 'price' => '2.50', 'taxes' => [['amount' => '10']]]]]]), 200,
    fn ($v) => is_array($v) && count($v) === 1 && $v[0]->amount === '2.5000' && $v[0]->tax === true);

// ---- recurring invoices (Invoices::addRecurring … getRecurringDelivery, add with term) -------
$recurVars = ['client_id' => $client, 'term' => 1, 'period' => 'month', 'duration' => 12, 'currency' => 'USD', 'date_renews' => '2030-01-01 00:00:00 UTC',
    'note_public' => 'Monthly support', 'lines' => [['description' => 'Support', 'qty' => 2, 'amount' => '40.00', 'tax' => 'true'], ['description' => 'Backups', 'amount' => '5']], 'delivery' => ['email']];
$recur = expect_call('invoices/addRecurring', $api->post('invoices', 'addRecurring', ['vars' => $recurVars]), 200, $isInt);
$recurRecord = expect_call('invoices/getRecurring', $api->get('invoices', 'getRecurring', ['invoice_recur_id' => $recur]), 200, fn ($v) => is_object($v) && $v->subtotal === '85.0000' && $v->count === 0 && count($v->line_items) === 2);
expect_shape('recurring_invoice', $recurRecord, ['id', 'client_id', 'term', 'period', 'duration', 'date_renews', 'date_last_renewed', 'currency', 'note_public', 'note_private', 'count', 'subtotal', 'taxable', 'total', 'line_items', 'delivery']);
$recurLines = expect_call('invoices/getRecurringLineItems', $api->get('invoices', 'getRecurringLineItems', ['invoice_recur_id' => $recur]), 200, fn ($v) => is_array($v) && $v[0]->subtotal === '80.0000' && $v[0]->taxable === true);
expect_call('invoices/editRecurring', $api->put('invoices', 'editRecurring', ['invoice_recur_id' => $recur, 'vars' => ['term' => 3, 'lines' => [['id' => $recurLines[1]->id ?? 0, 'description' => '', 'amount' => '']]]]), 200, fn ($v) => $v === $recur);
expect_call('invoices/getRecurring (edited)', $api->get('invoices', 'getRecurring', ['invoice_recur_id' => $recur]), 200, fn ($v) => is_object($v) && $v->term === 3 && count($v->line_items) === 1);
expect_call('invoices/getAllRecurring', $api->get('invoices', 'getAllRecurring', ['client_id' => $client]), 200, fn ($v) => is_array($v) && count($v) === 1 && isset($v[0]->client_id_code));
expect_call('invoices/getRecurringList', $api->get('invoices', 'getRecurringList', ['client_id' => $client, 'page' => 1, 'order' => ['term' => 'desc'], 'filters' => ['currency' => 'USD']]), 200, fn ($v) => is_array($v) && ($v[0]->id ?? null) === $recur);
expect_call('invoices/getRecurringListCount', $api->get('invoices', 'getRecurringListCount', ['client_id' => $client]), 200, fn ($v) => $v === 1);
expect_call('invoices/getRecurringCount', $api->get('invoices', 'getRecurringCount', ['client_id' => $client]), 200, fn ($v) => $v === 1);
$recurDelivery = expect_call('invoices/addRecurringDelivery', $api->post('invoices', 'addRecurringDelivery', ['invoice_recur_id' => $recur, 'vars' => ['method' => 'paper'], 'client_id' => $client]), 200, $isInt);
expect_call('invoices/getRecurringDelivery', $api->get('invoices', 'getRecurringDelivery', ['invoice_recur_id' => $recur]), 200, fn ($v) => is_array($v) && array_map(fn ($d) => $d->method, $v) === ['email', 'paper']);
expect_call('invoices/deleteRecurringDelivery', $api->delete('invoices', 'deleteRecurringDelivery', ['invoice_delivery_id' => $recurDelivery]));
expect_call('invoices/getRecurringFromInvoices (not from one)', $api->get('invoices', 'getRecurringFromInvoices', ['invoice_id' => $invoice]), 200, $isFalse);
expect_call('invoices/getRecurringInfo (not recurring)', $api->get('invoices', 'getRecurringInfo', ['invoice_id' => $invoice]), 200, $isFalse);
expect_call('other company: invoices/getRecurring', $other->get('invoices', 'getRecurring', ['invoice_recur_id' => $recur]), 200, $isFalse);
expect_call('other company: invoices/deleteRecurring', $other->delete('invoices', 'deleteRecurring', ['invoice_recur_id' => $recur]), 400, fn ($v, $e) => isset($e->invoice_recur_id->exists));
expect_call('invoices/deleteRecurring', $api->delete('invoices', 'deleteRecurring', ['invoice_recur_id' => $recur]));
expect_call('invoices/getRecurring (deleted)', $api->get('invoices', 'getRecurring', ['invoice_recur_id' => $recur]), 200, $isFalse);
expect_call('invoices/add (term: recurring)', $api->post('invoices', 'add', ['vars' => ['client_id' => $client2, 'term' => 1, 'period' => 'year', 'duration' => 'times', 'duration_time' => 2, 'recur_date_billed' => '2025-03-01 00:00:00 UTC'] + $invoiceVars]), 200, $isInt);
expect_call('invoices/getAllRecurring (from add)', $api->get('invoices', 'getAllRecurring', ['client_id' => $client2]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->period === 'year' && $v[0]->duration === 2 && $v[0]->date_renews === '2025-03-01 00:00:00');

// ---- transactions --------------------------------------------------------------------------
$payment = expect_call('transactions/add', $api->post('transactions', 'add', ['vars' => ['client_id' => $client, 'amount' => '100', 'currency' => 'USD', 'type' => 'other', 'transaction_id' => "wire-{$run}", 'reference_id' => 'REF-1', 'message' => 'Wire received', 'status' => 'approved', 'date_added' => '2024-03-10 09:00:00 UTC']]), 200, $isInt);
expect_call('transactions/verifyApply', $api->get('transactions', 'verifyApply', ['vars' => ['transaction_id' => $payment, 'amounts' => [['invoice_id' => $invoice, 'amount' => '60']]]]), 200, $isTrue);
expect_call('transactions/verifyApply (too much)', $api->get('transactions', 'verifyApply', ['vars' => ['transaction_id' => $payment, 'amounts' => [['invoice_id' => $invoice, 'amount' => '200']]]]), 400);
expect_call('transactions/apply', $api->post('transactions', 'apply', ['transaction_id' => $payment, 'vars' => ['amounts' => [['invoice_id' => $invoice, 'amount' => '60']]]]));
$txn = expect_call('transactions/get', $api->get('transactions', 'get', ['transaction_id' => $payment]), 200, fn ($v) => is_object($v));
expect_shape('transaction', $txn, ['id', 'client_id', 'amount', 'currency', 'type', 'transaction_type_id', 'account_id', 'gateway_id', 'transaction_id', 'parent_transaction_id', 'reference_id', 'message', 'status', 'date_added']);
expect_shape('transaction_applied', $txn->applied[0] ?? null, ['invoice_id', 'amount']);
expect_call('transactions/getByTransactionId', $api->get('transactions', 'getByTransactionId', ['transaction_id' => "wire-{$run}", 'client_id' => $client]), 200, fn ($v) => is_object($v) && $v->id === $payment);
expect_call('transactions/getList', $api->get('transactions', 'getList', ['client_id' => $client, 'status' => 'approved', 'page' => 1, 'order_by' => ['date_added' => 'DESC']]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('transactions/getListCount', $api->get('transactions', 'getListCount', ['client_id' => $client]), 200, fn ($v) => $v === 1);
expect_call('transactions/getStatusCount', $api->get('transactions', 'getStatusCount', ['client_id' => $client, 'status' => 'declined']), 200, fn ($v) => $v === 0);
expect_call('transactions/getSimpleList', $api->get('transactions', 'getSimpleList', ['client_id' => $client]), 200, $isList);
expect_call('transactions/search', $api->get('transactions', 'search', ['query' => 'wire received']), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('transactions/getSearchCount', $api->get('transactions', 'getSearchCount', ['query' => 'REF-1']), 200, fn ($v) => $v === 1);
expect_call('transactions/getApplied', $api->get('transactions', 'getApplied', ['transaction_id' => $payment]), 200, fn ($v) => is_array($v) && $v[0]->amount === '60.0000');
expect_call('transactions/getCredits', $api->get('transactions', 'getCredits', ['client_id' => $client]), 200, fn ($v) => is_array($v) && $v[0]->transaction_id === $payment && $v[0]->credit === '40.0000');
expect_call('transactions/getCreditedAmount', $api->get('transactions', 'getCreditedAmount', ['transaction_id' => $payment]), 200, fn ($v) => $v === '40.0000');
expect_call('transactions/getTotalCredit', $api->get('transactions', 'getTotalCredit', ['client_id' => $client, 'currency' => 'USD']), 200, fn ($v) => $v === '40.0000');
expect_call('transactions/applyFromCredits', $api->post('transactions', 'applyFromCredits', ['client_id' => $client, 'currency' => 'USD', 'amounts' => [['invoice_id' => $invoice, 'amount' => '10']]]), 200, fn ($v) => $v === '10.0000');
expect_call('transactions/unApply', $api->post('transactions', 'unApply', ['transaction_id' => $payment, 'invoices' => [$invoice]]));
expect_call('invoices/getPaid (after unApply)', $api->get('invoices', 'getPaid', ['invoice_id' => $invoice]), 200, fn ($v) => $v === '0.0000');
expect_call('transactions/edit', $api->put('transactions', 'edit', ['transaction_id' => $payment, 'vars' => ['status' => 'void', 'message' => 'Bounced'], 'staff_id' => 1]), 200, fn ($v) => $v === $payment);
expect_call('transactions/getTotalCredit (void)', $api->get('transactions', 'getTotalCredit', ['client_id' => $client, 'currency' => 'USD']), 200, fn ($v) => $v === '0.0000');
$ttype = expect_call('transactions/addType', $api->post('transactions', 'addType', ['vars' => ['name' => 'Bank cheque', 'type' => 'debit']]), 200, $isInt);
expect_call('transactions/addType (bad kind)', $api->post('transactions', 'addType', ['vars' => ['name' => 'X', 'type' => 'both']]), 400, fn ($v, $e) => isset($e->type->format));
expect_call('transactions/editType', $api->put('transactions', 'editType', ['type_id' => $ttype, 'vars' => ['type' => 'credit']]));
expect_call('transactions/getType', $api->get('transactions', 'getType', ['type_id' => $ttype]), 200, fn ($v) => is_object($v) && $v->type === 'credit');
expect_call('transactions/getTypes', $api->get('transactions', 'getTypes'), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('transactions/edit (transaction_type_id)', $api->put('transactions', 'edit', ['transaction_id' => $payment, 'vars' => ['transaction_type_id' => $ttype]]), 200);
expect_call('transactions/deleteType', $api->delete('transactions', 'deleteType', ['type_id' => $ttype]));
expect_call('transactions/get (type gone)', $api->get('transactions', 'get', ['transaction_id' => $payment]), 200, fn ($v) => is_object($v) && $v->transaction_type_id === null);
expect_call('transactions/getDebitTypes', $api->get('transactions', 'getDebitTypes'), 200, fn ($v) => isset($v->debit, $v->credit));
expect_call('transactions/transactionStatusNames', $api->get('transactions', 'transactionStatusNames'), 200, fn ($v) => isset($v->approved, $v->returned));
expect_call('transactions/transactionTypeNames', $api->get('transactions', 'transactionTypeNames'), 200, fn ($v) => isset($v->cc, $v->ach, $v->other));
expect_call('transactions/delete', $api->delete('transactions', 'delete', ['transaction_id' => $payment]));
expect_call('transactions/get (missing)', $api->get('transactions', 'get', ['transaction_id' => $payment]), 200, $isFalse);
$closing = expect_call('transactions/add (pays in full)', $api->post('transactions', 'add', ['vars' => ['client_id' => $client, 'amount' => '122', 'currency' => 'USD', 'amounts' => [['invoice_id' => $invoice]]]]), 200, $isInt);
expect_call('invoices/setClosed', $api->post('invoices', 'setClosed', ['invoice_id' => $invoice]), 200, $isTrue);
expect_call('invoices/getList (closed)', $api->get('invoices', 'getList', ['client_id' => $client, 'status' => 'closed']), 200, fn ($v) => is_array($v) && count($v) === 1);

// ---- extension managers --------------------------------------------------------------------
foreach (['plugin_manager' => ['plugin_id', 'getByDir', ['plugin_dir' => 'nothing_here']], 'module_manager' => ['module_id', 'getByClass', ['class' => 'nothing_here']], 'gateway_manager' => ['gateway_id', 'getByClass', ['class' => 'nothing_here']]] as $manager => [$idName, $byName, $nameArgs]) {
    expect_call("{$manager}/getAll", $api->get($manager, 'getAll', ['company_id' => $company]), 200, $isList);
    expect_call("{$manager}/getInstalled", $api->get($manager, 'getInstalled'), 200, $isList);
    expect_call("{$manager}/getAvailable", $api->get($manager, 'getAvailable'), 200, $isList);
    expect_call("{$manager}/{$byName}", $api->get($manager, $byName, $nameArgs + ['company_id' => $company]), 200, fn ($v) => $v === []);
    expect_call("{$manager}/get (missing)", $api->get($manager, 'get', [$idName => 999999]), 200, $isFalse);
}
expect_call('plugin_manager/isInstalled', $api->get('plugin_manager', 'isInstalled', ['dir' => 'nothing_here', 'company_id' => $company]), 200, $isFalse);
expect_call('gateway_manager/isInstalled', $api->get('gateway_manager', 'isInstalled', ['class' => 'nothing_here', 'type' => 'merchant']), 200, $isFalse);
expect_call('gateway_manager/verifyCurrency', $api->get('gateway_manager', 'verifyCurrency', ['currency' => 'USD', 'company_id' => $company]), 200, $isTrue);
expect_call('gateway_manager/getInstalledMerchant', $api->get('gateway_manager', 'getInstalledMerchant', ['company_id' => $company, 'currency' => 'USD']), 200, $isFalse);
expect_call('gateway_manager/getAllInstalledNonmerchant', $api->get('gateway_manager', 'getAllInstalledNonmerchant', ['company_id' => $company]), 200, $isList);

// ---- users: records and the validation messages of REFERENCE.md --------------------------------
$user = expect_call('users/add (ada)', $api->post('users', 'add', ['vars' => ['username' => "ada-{$run}", 'new_password' => 'secret12', 'confirm_password' => 'secret12', 'recovery_email' => 'ada@example.com']]), 200, $isInt);
$userRecord = expect_call('users/get', $api->get('users', 'get', ['user_id' => $user]), 200, fn ($v) => is_object($v) && !property_exists($v, 'password') && $v->username === "ada-{$run}");
expect_shape('user', $userRecord, ['id', 'username', 'date_added']);
expect_call('users/getByUsername', $api->get('users', 'getByUsername', ['username' => "ada-{$run}"]), 200, fn ($v) => is_object($v) && $v->id === $user);
expect_call('users/getByEmail', $api->get('users', 'getByEmail', ['email' => 'ada@example.com']), 200, fn ($v) => is_object($v) && $v->id === $user);
expect_call('users/getAllByEmail', $api->get('users', 'getAllByEmail', ['email' => 'ada@example.com']), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('users/add (taken)', $api->post('users', 'add', ['vars' => ['username' => "ada-{$run}", 'new_password' => 'secret12', 'confirm_password' => 'secret12']]), 400, fn ($v, $e) => ($e->username->unique ?? null) === 'That username has already been taken.');
expect_call('users/add (passwords)', $api->post('users', 'add', ['vars' => ['username' => "bob-{$run}", 'new_password' => 'abc', 'confirm_password' => 'abd']]), 400,
    fn ($v, $e) => ($e->new_password->format ?? null) === 'Please enter a password at least 6 characters in length.' && ($e->new_password->matches ?? null) === 'The passwords do not match.');
expect_call('users/edit', $api->put('users', 'edit', ['user_id' => $user, 'vars' => ['recovery_email' => 'ada@example.org']]), 200, fn ($v) => is_object($v) && $v->recovery_email === 'ada@example.org');
expect_call('users/edit (missing)', $api->put('users', 'edit', ['user_id' => 999999, 'vars' => ['username' => 'x']]), 400, fn ($v, $e) => ($e->user_id->exists ?? null) === 'Invalid user ID.');
expect_call('users/auth (wrong password: false, no errors)', $api->post('users', 'auth', ['username' => "ada-{$run}", 'vars' => ['username' => "ada-{$run}", 'password' => 'wrong'], 'type' => 'any']), 200, $isFalse);
expect_call('users/delete (in use by a client)', $api->delete('users', 'delete', ['user_id' => $login]), 400,
    fn ($v, $e) => ($e->clients->exist ?? null) === 'The user cannot be deleted because there is at least one client assigned to the user.');
expect_call('users/getOtpModes', $api->get('users', 'getOtpModes'), 200, fn ($v) => is_object($v) && $v->none === 'None');
expect_call('users/requiredOtpMode', $api->get('users', 'requiredOtpMode', ['user' => $user]), 200, $isFalse);
expect_call('users/delete', $api->delete('users', 'delete', ['user_id' => $user]));
expect_call('users/delete (missing: a no-op)', $api->delete('users', 'delete', ['user_id' => $user]));
expect_call('users/get (missing)', $api->get('users', 'get', ['user_id' => $user]), 200, $isFalse);

// ---- invoices: the validation messages of REFERENCE.md ----------------------------------------
expect_call('invoices/add (bad values)', $api->post('invoices', 'add', ['vars' => [
    'client_id' => 999999, 'date_billed' => 'someday', 'date_due' => 'never', 'currency' => 'US', 'status' => 'paid', 'delivery' => ['fax'],
    'lines' => [['service_id' => 999999, 'description' => 'x', 'qty' => '0', 'amount' => 'abc']],
]]), 400, fn ($v, $e) => ($e->client_id->exists ?? null) === 'Invalid client ID.'
    && ($e->date_billed->format ?? null) === 'The billed date is in an invalid date format.'
    && ($e->date_due->format ?? null) === 'The due date is in an invalid date format.'
    && ($e->status->format ?? null) === 'Invalid status.'
    && ($e->currency->length ?? null) === 'The currency code must be 3 characters in length.'
    && ($e->delivery->exists ?? null) === 'The delivery method given does not exist.'
    && ($e->{'lines[0][service_id]'}->exists ?? null) === 'Invalid service ID.'
    && ($e->{'lines[0][qty]'}->minimum ?? null) === 'Please enter a quantity of 1 or more.'
    && ($e->{'lines[0][amount]'}->format ?? null) === 'The unit cost must be a number.');
expect_call('invoices/add (due before billed)', $api->post('invoices', 'add', ['vars' => ['date_billed' => '2024-03-31 00:00:00 UTC', 'date_due' => '2024-03-01 00:00:00 UTC'] + $invoiceVars]), 400,
    fn ($v, $e) => ($e->date_due->after_billed ?? null) === 'The date due must be on or after the date billed.');

// ---- companies and settings; timestamps read in the company's time zone ------------------------
expect_call('companies/get', $api->get('companies', 'get', ['company_id' => $company]), 200, fn ($v) => is_object($v) && $v->id === $company);
expect_call('companies/get (missing)', $api->get('companies', 'get', ['company_id' => 999999]), 200, $isFalse);
expect_call('companies/getAll', $api->get('companies', 'getAll'), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('companies/getList', $api->get('companies', 'getList', ['page' => 1, 'order_by' => ['name' => 'ASC']]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('companies/getListCount', $api->get('companies', 'getListCount'), 200, fn ($v) => $v === 1);
expect_call('companies/getByHostname (none)', $api->get('companies', 'getByHostname', ['hostname' => 'nowhere.example.com']), 200, $isFalse);
expect_call('companies/getSettings', $api->get('companies', 'getSettings', ['company_id' => $company]), 200,
    fn ($v) => is_array($v) && in_array('timezone', array_map(fn ($s) => $s->key, $v), true));
expect_call('companies/setSetting', $api->post('companies', 'setSetting', ['company_id' => $company, 'key' => 'timezone', 'value' => 'America/New_York']));
expect_call('companies/getSetting', $api->get('companies', 'getSetting', ['company_id' => $company, 'key' => 'timezone']), 200, fn ($v) => is_object($v) && $v->value === 'America/New_York');
$zoned = [];
foreach (['local' => '2021-12-31 12:00:00', 'offset' => '2021-12-31 12:00:00 +02:00', 'utc' => '2021-12-31 12:00:00 UTC', 'iso' => '2021-12-31T12:00:00Z'] as $label => $when) {
    $id = expect_call("invoices/add (date_billed {$label})", $api->post('invoices', 'add', ['vars' => ['date_billed' => $when, 'date_due' => '2022-01-31 00:00:00 UTC'] + $invoiceVars]), 200, $isInt);
    $zoned[$label] = $api->get('invoices', 'get', ['invoice_id' => $id])->response()->date_billed ?? null;
}
$facts['timestamps'] = $zoned;
expect_call('companies/setSettings', $api->post('companies', 'setSettings', ['company_id' => $company, 'settings' => ['timezone' => 'Nowhere/City']]), 400, fn ($v, $e) => isset($e->{'settings[timezone]'}));
expect_call('companies/unsetSetting', $api->delete('companies', 'unsetSetting', ['company_id' => $company, 'key' => 'timezone']));
expect_call('companies/getSetting (default again)', $api->get('companies', 'getSetting', ['company_id' => $company, 'key' => 'timezone']), 200, fn ($v) => is_object($v) && $v->value === 'UTC');
expect_call('companies/delete (a company credential)', $api->delete('companies', 'delete', ['company_id' => 2]), 403);
expect_call('other company: packages/getAll (company 1)', $other->get('packages', 'getAll', ['company_id' => $company]), 200, fn ($v) => $v === []);
expect_call('settings/getSettings', $api->get('settings', 'getSettings'), 200, fn ($v) => is_array($v) && ($v[0]->key ?? null) === 'maintenance_mode');
expect_call('settings/getSetting', $api->get('settings', 'getSetting', ['key' => 'maintenance_mode']), 200, fn ($v) => is_object($v) && $v->value === 'false');
expect_call('settings/setSetting (a company credential)', $api->post('settings', 'setSetting', ['key' => 'maintenance_mode', 'value' => 'true']), 403);

// ---- packages, package groups, pricings, coupons -----------------------------------------------
$pgroup = expect_call('package_groups/add', $api->post('package_groups', 'add', ['vars' => ['names' => [['lang' => 'en_us', 'name' => 'Hosting']], 'type' => 'standard']]), 200, $isInt);
expect_call('package_groups/edit', $api->put('package_groups', 'edit', ['package_group_id' => $pgroup, 'vars' => ['descriptions' => [['lang' => 'en_us', 'description' => 'Web hosting']]]]));
$pkg = expect_call('packages/add', $api->post('packages', 'add', ['vars' => ['names' => [['lang' => 'en_us', 'name' => 'Starter']], 'groups' => [$pgroup],
    'pricing' => [['term' => 1, 'period' => 'month', 'price' => '5.00', 'setup_fee' => '1.00', 'currency' => 'USD'], ['term' => 1, 'period' => 'year', 'price' => '50.00', 'currency' => 'USD']]]]), 200, $isInt);
$pkg2 = expect_call('packages/add (second)', $api->post('packages', 'add', ['vars' => ['names' => [['lang' => 'en_us', 'name' => 'Business']], 'pricing' => [['price' => '20.00', 'currency' => 'USD']], 'status' => 'inactive']]), 200, $isInt);
$pkgRecord = expect_call('packages/get', $api->get('packages', 'get', ['package_id' => $pkg]), 200, fn ($v) => is_object($v) && count($v->pricing) === 2);
expect_shape('package', $pkgRecord, ['id', 'names', 'descriptions', 'status', 'company_id', 'taxable', 'qty', 'client_qty', 'prorata_day', 'pricing', 'groups']);
expect_shape('package_pricing', $pkgRecord->pricing[0] ?? null, ['id', 'term', 'period', 'price', 'price_renews', 'setup_fee', 'cancel_fee', 'currency']);
expect_call('packages/edit', $api->put('packages', 'edit', ['package_id' => $pkg, 'vars' => ['taxable' => 1, 'pricing' => [['id' => $pkgRecord->pricing[1]->id ?? 0, 'term' => '']]]]));
expect_call('packages/getByPricingId', $api->get('packages', 'getByPricingId', ['package_pricing_id' => $pkgRecord->pricing[0]->id ?? 0]), 200, fn ($v) => is_object($v) && $v->id === $pkg && count($v->pricing) === 1);
expect_call('packages/getAll', $api->get('packages', 'getAll', ['company_id' => $company, 'order' => ['name' => 'DESC'], 'status' => 'active', 'type' => 'standard']), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->id === $pkg);
expect_call('packages/getList', $api->get('packages', 'getList', ['page' => 1, 'order_by' => ['id_code' => 'desc']]), 200, fn ($v) => is_array($v) && array_map(fn ($p) => $p->id, $v) === [$pkg2, $pkg]);
expect_call('packages/getListCount', $api->get('packages', 'getListCount', ['status' => 'inactive']), 200, fn ($v) => $v === 1);
expect_call('packages/search', $api->get('packages', 'search', ['query' => 'STARTER']), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('packages/getSearchCount', $api->get('packages', 'getSearchCount', ['query' => 'starter']), 200, fn ($v) => $v === 1);
expect_call('packages/getAllPackagesByGroup', $api->get('packages', 'getAllPackagesByGroup', ['package_group_id' => $pgroup]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('packages/getStatusTypes', $api->get('packages', 'getStatusTypes'), 200, fn ($v) => isset($v->active, $v->inactive, $v->restricted));
expect_call('package_groups/get', $api->get('package_groups', 'get', ['package_group_id' => $pgroup]), 200, fn ($v) => is_object($v) && $v->packages === [$pkg]);
expect_call('package_groups/getAll', $api->get('package_groups', 'getAll', ['company_id' => $company, 'type' => 'standard', 'order_by' => ['name' => 'asc']]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('package_groups/getList', $api->get('package_groups', 'getList', ['company_id' => $company, 'page' => 1, 'order_by' => ['name' => 'asc']]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('package_groups/getListCount', $api->get('package_groups', 'getListCount', ['company_id' => $company]), 200, fn ($v) => $v === 1);
expect_call('package_groups/getTypeCount', $api->get('package_groups', 'getTypeCount', ['company_id' => $company, 'type' => 'addon']), 200, fn ($v) => $v === 0);
expect_call('package_groups/getTypes', $api->get('package_groups', 'getTypes'), 200, fn ($v) => isset($v->standard, $v->addon));
$pricing = expect_call('pricings/add', $api->post('pricings', 'add', ['vars' => ['term' => 3, 'period' => 'month', 'price' => '12.00', 'currency' => 'USD']]), 200, $isInt);
expect_call('pricings/edit', $api->put('pricings', 'edit', ['pricing_id' => $pricing, 'vars' => ['price' => '11.00']]));
expect_call('pricings/get', $api->get('pricings', 'get', ['pricing_id' => $pricing]), 200, fn ($v) => is_object($v) && $v->price === '11.0000');
expect_call('pricings/getAll', $api->get('pricings', 'getAll', ['company_id' => $company]), 200, $isList);
expect_call('pricings/getList', $api->get('pricings', 'getList', ['company_id' => $company, 'page' => 1, 'order_by' => ['term' => 'desc']]), 200, fn ($v) => is_array($v) && ($v[0]->id ?? null) === $pricing);
expect_call('pricings/getListCount', $api->get('pricings', 'getListCount', ['company_id' => $company]), 200, $isInt);
expect_call('pricings/getPeriods', $api->get('pricings', 'getPeriods', ['plural' => 'true']), 200, fn ($v) => ($v->month ?? null) === 'Months');
expect_call('pricings/formatTerm', $api->get('pricings', 'formatTerm', ['term' => 3, 'period' => 'month']), 200, fn ($v) => $v === '3 Months');
expect_call('pricings/delete', $api->delete('pricings', 'delete', ['pricing_id' => $pricing]));
$coupon = expect_call('coupons/add', $api->post('coupons', 'add', ['vars' => ['code' => "SAVE-{$run}", 'company_id' => $company, 'recurring' => 0, 'packages' => [$pkg], 'amounts' => [['currency' => 'USD', 'amount' => '10', 'type' => 'percent']]]]), 200, $isInt);
$couponRecord = expect_call('coupons/get', $api->get('coupons', 'get', ['coupon_id' => $coupon]), 200, fn ($v) => is_object($v) && $v->packages === [$pkg]);
expect_shape('coupon', $couponRecord, ['id', 'code', 'company_id', 'used_qty', 'max_qty', 'start_date', 'end_date', 'status', 'recurring', 'limit_recurring', 'amounts', 'packages']);
expect_call('coupons/edit', $api->put('coupons', 'edit', ['coupon_id' => $coupon, 'vars' => ['max_qty' => 5]]), 200, fn ($v) => $v === $coupon);
expect_call('coupons/getByCode', $api->get('coupons', 'getByCode', ['code' => "SAVE-{$run}"]), 200, fn ($v) => is_object($v) && $v->id === $coupon);
expect_call('coupons/getList', $api->get('coupons', 'getList', ['company_id' => $company, 'page' => 1, 'order_by' => ['code' => 'DESC'], 'filters' => ['status' => 'active']]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('coupons/getListCount', $api->get('coupons', 'getListCount', ['company_id' => $company, 'filters' => ['status' => 'inactive']]), 200, fn ($v) => $v === 0);
expect_call('coupons/getForPackages', $api->get('coupons', 'getForPackages', ['code' => "SAVE-{$run}", 'packages' => [$pkg]]), 200, fn ($v) => is_object($v) && $v->id === $coupon);
expect_call('coupons/getForPackages (another package)', $api->get('coupons', 'getForPackages', ['code' => "SAVE-{$run}", 'packages' => [$pkg2]]), 200, $isFalse);
expect_call('coupons/getCouponAmounts', $api->get('coupons', 'getCouponAmounts', ['coupon_id' => $coupon]), 200, fn ($v) => is_array($v) && ($v[0]->amount ?? null) === '10.0000');
expect_call('coupons/getAmountTypes', $api->get('coupons', 'getAmountTypes'), 200, fn ($v) => isset($v->percent, $v->amount));
expect_call('coupons/getRecurring (not recurring)', $api->get('coupons', 'getRecurring', ['coupon_id' => $coupon, 'currency' => 'USD', 'date' => '2030-01-01 00:00:00 UTC']), 200, $isFalse);
expect_call('coupons/edit (recurring)', $api->put('coupons', 'edit', ['coupon_id' => $coupon, 'vars' => ['recurring' => 1]]), 200);
expect_call('coupons/getRecurring', $api->get('coupons', 'getRecurring', ['coupon_id' => $coupon, 'currency' => 'USD', 'date' => '2030-01-01 00:00:00 UTC']), 200,
    fn ($v) => is_object($v) && $v->id === $coupon && $v->amount === '10.0000' && $v->type === 'percent' && $v->currency === 'USD');
expect_call('coupons/incrementUsage', $api->post('coupons', 'incrementUsage', ['coupon_id' => $coupon]));
expect_call('coupons/get (used once)', $api->get('coupons', 'get', ['coupon_id' => $coupon]), 200, fn ($v) => is_object($v) && $v->used_qty === 1);
expect_call('coupons/delete', $api->delete('coupons', 'delete', ['coupon_id' => $coupon]));
expect_call('coupons/get (missing)', $api->get('coupons', 'get', ['coupon_id' => $coupon]), 200, $isFalse);
expect_call('packages/delete', $api->delete('packages', 'delete', ['package_id' => $pkg2]));
expect_call('packages/get (missing)', $api->get('packages', 'get', ['package_id' => $pkg2]), 200, $isFalse);
expect_call('package_groups/delete', $api->delete('package_groups', 'delete', ['package_group_id' => $pgroup]));

// ---- services and accounts: a module, a gateway, packages, a client, a service's lifecycle, a card ----
// Installed as the reference names them: a module or gateway by its class. Tally's test_card
// gateway takes its secret key in vars[settings] (the reference sets gateway meta with edit).
$module = expect_call('module_manager/add', $api->post('module_manager', 'add', ['vars' => ['class' => 'generic_server', 'company_id' => $company]]), 200, $isInt);
$gateway = expect_call('gateway_manager/add', $api->post('gateway_manager', 'add', ['vars' => ['class' => 'test_card', 'company_id' => $company, 'settings' => ['secret_key' => 'test_reference']]]), 200, $isInt);
expect_call('gateway_manager/get', $api->get('gateway_manager', 'get', ['gateway_id' => $gateway]), 200, fn ($v) => is_object($v) && $v->id === $gateway);
expect_call('module_manager/get', $api->get('module_manager', 'get', ['module_id' => $module]), 200, fn ($v) => is_object($v) && $v->id === $module);
expect_call('generic_server.servers/add (a plugin model)', $api->post('generic_server.servers', 'add', ['vars' => ['name' => 'One', 'hostname' => 'one.example.com']]), 200);
// Module rows, groups and meta (ModuleManager), with the reference's signatures: a row's fields are
// those generic_server's manifest declares (row_fields); its secret api_key is never answered.
$row = expect_call('module_manager/addRow', $api->post('module_manager', 'addRow', ['module_id' => $module, 'vars' => ['hostname' => 'one.example.com', 'name' => 'One', 'api_key' => "key-{$run}"]]), 200, $isInt);
$row2 = expect_call('module_manager/addRow (second)', $api->post('module_manager', 'addRow', ['module_id' => $module, 'vars' => ['hostname' => 'one.example.com', 'name' => 'Spare']]), 200, $isInt);
expect_call('module_manager/addRow (no hostname)', $api->post('module_manager', 'addRow', ['module_id' => $module, 'vars' => ['name' => 'Nameless']]), 400, fn ($v, $e) => isset($e->hostname->empty));
expect_call('module_manager/editRow', $api->put('module_manager', 'editRow', ['module_row_id' => $row2, 'vars' => ['name' => 'Spare two']]), 200, fn ($v) => $v === $row2);
$rowRecord = expect_call('module_manager/getRow', $api->get('module_manager', 'getRow', ['module_row_id' => $row]), 200, fn ($v) => is_object($v) && $v->meta->hostname === 'one.example.com' && !isset($v->meta->api_key) && $v->secrets_set === ['api_key']);
expect_shape('module_row', $rowRecord, ['id', 'module_id', 'meta']);
expect_call('module_manager/getRows', $api->get('module_manager', 'getRows', ['module_id' => $module]), 200, fn ($v) => is_array($v) && count($v) === 2 && !str_contains(json_encode($v), "key-{$run}"));
expect_call('module_manager/getRowMeta', $api->get('module_manager', 'getRowMeta', ['module_row_id' => $row2, 'key' => 'name']), 200, fn ($v) => is_object($v) && $v->name === 'Spare two');
$mgroup = expect_call('module_manager/addGroup', $api->post('module_manager', 'addGroup', ['module_id' => $module, 'vars' => ['name' => 'Pool', 'module_rows' => [$row, $row2], 'add_order' => 'first', 'force_limits' => '0']]), 200, $isInt);
expect_call('module_manager/editGroup', $api->put('module_manager', 'editGroup', ['module_group_id' => $mgroup, 'vars' => ['name' => 'Main pool', 'module_rows' => [$row]]]), 200);
expect_shape('module_group', expect_call('module_manager/getGroup', $api->get('module_manager', 'getGroup', ['module_group_id' => $mgroup]), 200, fn ($v) => is_object($v) && $v->name === 'Main pool' && count($v->rows) === 1),
    ['id', 'module_id', 'add_order', 'name', 'force_limits', 'rows']);
expect_call('module_manager/getGroups', $api->get('module_manager', 'getGroups', ['module_id' => $module]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('module_manager/getRows (of a group)', $api->get('module_manager', 'getRows', ['module_id' => $module, 'module_group_id' => $mgroup]), 200, fn ($v) => is_array($v) && array_map(fn ($r) => $r->id, $v) === [$row]);
expect_call('module_manager/setMeta', $api->post('module_manager', 'setMeta', ['module_id' => $module, 'vars' => [['key' => 'region', 'value' => 'eu'], ['key' => 'token', 'value' => 'hidden', 'encrypted' => '1']]]));
expect_call('module_manager/getMeta', $api->get('module_manager', 'getMeta', ['module_id' => $module]), 200, fn ($v) => is_object($v) && $v->region === 'eu' && !isset($v->token));
expect_call('module_manager/moduleRpc', $api->post('module_manager', 'moduleRpc', ['module_id' => $module, 'method' => 'servers.getList']), 200, fn ($v) => is_array($v) && ($v[0]->hostname ?? null) === 'one.example.com');
expect_call('module_manager/get (rows and groups)', $api->get('module_manager', 'get', ['module_id' => $module, 'rows' => 'true', 'groups' => 'true']), 200, fn ($v) => is_object($v) && count($v->rows) === 2 && count($v->groups) === 1);
expect_call('other company: module_manager/getRow', $other->get('module_manager', 'getRow', ['module_row_id' => $row]), 200, $isFalse);
expect_call('other company: module_manager/getRows', $other->get('module_manager', 'getRows', ['module_id' => $module]), 200, fn ($v) => $v === []);
expect_call('other company: module_manager/editRow', $other->put('module_manager', 'editRow', ['module_row_id' => $row, 'vars' => ['hostname' => 'evil.example.com']]), 400);
expect_call('other company: module_manager/moduleRpc', $other->post('module_manager', 'moduleRpc', ['module_id' => $module, 'method' => 'servers.getList']), 400);
expect_call('other company: module_manager/getGroup', $other->get('module_manager', 'getGroup', ['module_group_id' => $mgroup]), 200, $isFalse);
$hosting = expect_call('packages/add (on the module)', $api->post('packages', 'add', ['vars' => ['names' => [['lang' => 'en_us', 'name' => 'Hosting']], 'module_id' => $module, 'meta' => ['plan' => 'basic'],
    'pricing' => [['term' => 1, 'period' => 'month', 'price' => '10.00', 'setup_fee' => '2.00', 'currency' => 'USD'], ['term' => 1, 'period' => 'year', 'price' => '100.00', 'currency' => 'USD']]]]), 200, $isInt);
$backup = expect_call('packages/add (second, on the module)', $api->post('packages', 'add', ['vars' => ['names' => [['lang' => 'en_us', 'name' => 'Backup']], 'module_id' => $module, 'meta' => ['plan' => 'basic'],
    'pricing' => [['term' => 1, 'period' => 'month', 'price' => '3.00', 'currency' => 'USD']]]]), 200, $isInt);
$monthly = $api->get('packages', 'get', ['package_id' => $hosting])->response()->pricing[0]->id ?? 0;
$yearly = $api->get('packages', 'get', ['package_id' => $hosting])->response()->pricing[1]->id ?? 0;
$backupPricing = $api->get('packages', 'get', ['package_id' => $backup])->response()->pricing[0]->id ?? 0;
$owner = expect_call('clients/add (service owner)', $api->post('clients', 'add', ['vars' => ['first_name' => 'Grace', 'last_name' => 'Hopper', 'email' => "grace-{$run}@example.com"]]), 200, $isInt);
$newOwner = expect_call('clients/add (second owner)', $api->post('clients', 'add', ['vars' => ['first_name' => 'Alan', 'last_name' => 'Turing', 'email' => "alan-{$run}@example.com"]]), 200, $isInt);
$service = expect_call('services/add', $api->post('services', 'add', ['vars' => ['pricing_id' => $monthly, 'client_id' => $owner, 'status' => 'active', 'use_module' => 'true', 'module_group_id' => $mgroup, 'domain' => "grace-{$run}.example.com"]]), 200, $isInt);
// Restricted packages (Clients::setRestrictedPackages …), enforced on services/add.
$restricted = expect_call('packages/add (restricted)', $api->post('packages', 'add', ['vars' => ['names' => [['lang' => 'en_us', 'name' => 'Private']], 'module_id' => $module, 'meta' => ['plan' => 'basic'], 'status' => 'restricted',
    'pricing' => [['term' => 1, 'period' => 'month', 'price' => '9.00', 'currency' => 'USD']]]]), 200, $isInt);
$restrictedPricing = $api->get('packages', 'get', ['package_id' => $restricted])->response()->pricing[0]->id ?? 0;
$insider = expect_call('clients/add (restricted package buyer)', $api->post('clients', 'add', ['vars' => ['first_name' => 'Ida', 'last_name' => 'Insider', 'email' => "ida-{$run}@example.com"]]), 200, $isInt);
expect_call('services/add (restricted, no access)', $api->post('services', 'add', ['vars' => ['pricing_id' => $restrictedPricing, 'client_id' => $insider, 'status' => 'pending', 'domain' => "private-{$run}.example.com"]]), 400, fn ($v, $e) => isset($e->client_id->allowed));
expect_call('clients/setRestrictedPackages', $api->post('clients', 'setRestrictedPackages', ['client_id' => $insider, 'package_ids' => [$restricted]]));
expect_call('clients/getRestrictedPackages', $api->get('clients', 'getRestrictedPackages', ['client_id' => $insider]), 200, fn ($v) => is_array($v) && ($v[0]->package_id ?? null) === $restricted);
expect_call('services/add (restricted, granted)', $api->post('services', 'add', ['vars' => ['pricing_id' => $restrictedPricing, 'client_id' => $insider, 'status' => 'pending', 'domain' => "private-{$run}.example.com"]]), 200, $isInt);
expect_call('other company: clients/getRestrictedPackages', $other->get('clients', 'getRestrictedPackages', ['client_id' => $insider]), 400, fn ($v, $e) => isset($e->client_id->exists));
expect_call('clients/deleteRestrictedPackages', $api->delete('clients', 'deleteRestrictedPackages', ['client_id' => $insider]));
expect_call('clients/getRestrictedPackages (deleted)', $api->get('clients', 'getRestrictedPackages', ['client_id' => $insider]), 200, fn ($v) => $v === []);
$serviceRecord = expect_call('services/get', $api->get('services', 'get', ['service_id' => $service]), 200, fn ($v) => is_object($v) && $v->status === 'active' && $v->pricing_id === $monthly && $v->module_row_id === $row);
expect_shape('service', $serviceRecord, ['id', 'parent_service_id', 'package_group_id', 'pricing_id', 'client_id', 'module_row_id', 'coupon_id', 'qty', 'override_price', 'override_currency', 'status',
    'suspension_reason', 'date_added', 'date_renews', 'date_last_renewed', 'date_suspended', 'date_canceled', 'fields']);
expect_shape('service_field', $serviceRecord->fields[0] ?? null, ['key', 'value', 'encrypted']);
expect_call('module_manager/deleteRow (a service is on it: refused)', $api->delete('module_manager', 'deleteRow', ['module_row_id' => $row]), 400, fn ($v, $e) => isset($e->module_row_id->assigned_service));
expect_call('module_manager/deleteRow', $api->delete('module_manager', 'deleteRow', ['module_row_id' => $row2]));
expect_call('module_manager/getRow (deleted)', $api->get('module_manager', 'getRow', ['module_row_id' => $row2]), 200, $isFalse);
expect_call('module_manager/deleteGroup', $api->delete('module_manager', 'deleteGroup', ['module_group_id' => $mgroup]));
expect_call('module_manager/getGroups (deleted)', $api->get('module_manager', 'getGroups', ['module_id' => $module]), 200, fn ($v) => $v === []);
$addon = expect_call('services/add (addon)', $api->post('services', 'add', ['vars' => ['pricing_id' => $backupPricing, 'client_id' => $owner, 'parent_service_id' => $service, 'status' => 'active', 'domain' => "backup-{$run}.example.com"]]), 200, $isInt);
expect_call('services/getList', $api->get('services', 'getList', ['client_id' => $owner, 'status' => 'active', 'page' => 1, 'order_by' => ['date_added' => 'DESC'], 'children' => 'true', 'filters' => ['package_id' => $hosting]]), 200,
    fn ($v) => is_array($v) && array_map(fn ($s) => $s->id, $v) === [$service]);
expect_call('services/getList (order_by id)', $api->get('services', 'getList', ['client_id' => $owner, 'status' => 'all', 'page' => 1, 'order_by' => ['id' => 'ASC']]), 200, fn ($v) => is_array($v) && array_map(fn ($s) => $s->id, $v) === [$service, $addon]);
expect_call('services/getListCount', $api->get('services', 'getListCount', ['client_id' => $owner, 'status' => 'active', 'children' => 'false', 'filters' => ['package_name' => 'HOST']]), 200, fn ($v) => $v === 1);
expect_call('services/getAllByClient', $api->get('services', 'getAllByClient', ['client_id' => $owner, 'status' => 'active', 'order_by' => ['id' => 'DESC']]), 200, fn ($v) => is_array($v) && array_map(fn ($s) => $s->id, $v) === [$addon, $service]);
expect_call('services/getStatusCount', $api->get('services', 'getStatusCount', ['client_id' => $owner, 'status' => 'active', 'children' => 'true', 'filters' => ['package_id' => $backup]]), 200, fn ($v) => $v === 1);
expect_call('services/getSimpleList', $api->get('services', 'getSimpleList', ['client_id' => $owner, 'page' => 1]), 200, fn ($v) => is_array($v) && count($v) === 2);
expect_call('services/getAll', $api->get('services', 'getAll', ['order_by' => ['date_added' => 'DESC'], 'children' => 'true', 'filters' => ['client_id' => $owner]]), 200, fn ($v) => is_array($v) && count($v) === 2);
expect_call('services/search', $api->get('services', 'search', ['query' => "GRACE-{$run}", 'page' => 1]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->id === $service);
expect_call('services/getSearchCount', $api->get('services', 'getSearchCount', ['query' => "grace-{$run}"]), 200, fn ($v) => $v === 1);
expect_call('services/getAllChildren', $api->get('services', 'getAllChildren', ['parent_service_id' => $service, 'status' => 'all']), 200, fn ($v) => is_array($v) && ($v[0]->id ?? null) === $addon);
expect_call('services/getAllChildrenCount', $api->get('services', 'getAllChildrenCount', ['parent_service_id' => $service]), 200, fn ($v) => $v === 1);
expect_call('services/hasChildren', $api->get('services', 'hasChildren', ['service_id' => $service]), 200, $isTrue);
expect_call('services/hasParent', $api->get('services', 'hasParent', ['service_id' => $addon]), 200, $isTrue);
expect_call('services/getRenewalPrice', $api->get('services', 'getRenewalPrice', ['service_id' => $service]), 200, fn ($v) => $v === '10.0000');
expect_call('services/getPricingInfo', $api->get('services', 'getPricingInfo', ['service_id' => $service]), 200, fn ($v) => is_object($v) && $v->price === '10.0000' && $v->period === 'month');
expect_call('services/getPackagePricing', $api->get('services', 'getPackagePricing', ['pricing_id' => $yearly]), 200, fn ($v) => is_object($v) && $v->price === '100.0000');
expect_call('services/getNextRenewDate', $api->get('services', 'getNextRenewDate', ['last_renew_date' => '2026-01-31 00:00:00 UTC', 'term' => 1, 'period' => 'month']), 200, fn ($v) => is_string($v) && str_starts_with($v, '2026-02-28'));
expect_call('services/getStatusTypes', $api->get('services', 'getStatusTypes'), 200, fn ($v) => isset($v->active, $v->suspended, $v->canceled, $v->pending, $v->in_review));
expect_call('services/getActions', $api->get('services', 'getActions'), 200, fn ($v) => isset($v->suspend, $v->cancel));
expect_call('services/edit (to the yearly term)', $api->put('services', 'edit', ['service_id' => $service, 'vars' => ['pricing_id' => $yearly, 'use_module' => 'false']]), 200);
expect_call('services/get (yearly)', $api->get('services', 'get', ['service_id' => $service]), 200, fn ($v) => is_object($v) && $v->pricing_id === $yearly);
expect_call('services/suspend', $api->post('services', 'suspend', ['service_id' => $service, 'vars' => ['suspension_reason' => 'Abuse report']]));
expect_call('services/get (suspended)', $api->get('services', 'get', ['service_id' => $service]), 200, fn ($v) => is_object($v) && $v->status === 'suspended' && $v->suspension_reason === 'Abuse report' && $v->date_suspended !== null);
expect_call('services/unsuspend', $api->post('services', 'unsuspend', ['service_id' => $service]));
expect_call('services/get (unsuspended)', $api->get('services', 'get', ['service_id' => $service]), 200, fn ($v) => is_object($v) && $v->status === 'active' && $v->date_suspended === null);
expect_call('services/cancel (end of term)', $api->post('services', 'cancel', ['service_id' => $service, 'vars' => ['date_canceled' => 'end_of_term']]));
expect_call('services/getListCount (scheduled_cancellation)', $api->get('services', 'getListCount', ['client_id' => $owner, 'status' => 'scheduled_cancellation']), 200, fn ($v) => $v === 1);
expect_call('services/unCancel', $api->post('services', 'unCancel', ['service_id' => $service]));
expect_call('services/get (not canceling)', $api->get('services', 'get', ['service_id' => $service]), 200, fn ($v) => is_object($v) && $v->status === 'active' && $v->date_canceled === null);
expect_call('services/move', $api->post('services', 'move', ['service_id' => $service, 'client_id' => $newOwner]), 200, fn ($v) => $v === $service);
expect_call('services/getAllByClient (moved with its addon)', $api->get('services', 'getAllByClient', ['client_id' => $newOwner, 'status' => 'all']), 200, fn ($v) => is_array($v) && count($v) === 2);
expect_call('services/cancel (now)', $api->post('services', 'cancel', ['service_id' => $addon, 'vars' => ['date_canceled' => '2020-01-01 00:00:00 UTC']]));
expect_call('services/get (canceled)', $api->get('services', 'get', ['service_id' => $addon]), 200, fn ($v) => is_object($v) && $v->status === 'canceled');
$pending = expect_call('services/add (pending)', $api->post('services', 'add', ['vars' => ['pricing_id' => $monthly, 'client_id' => $owner, 'domain' => "later-{$run}.example.com"]]), 200, $isInt);
expect_call('services/get (pending by default)', $api->get('services', 'get', ['service_id' => $pending]), 200, fn ($v) => is_object($v) && $v->status === 'pending');
expect_call('services/delete (pending)', $api->delete('services', 'delete', ['service_id' => $pending]));
expect_call('services/get (deleted)', $api->get('services', 'get', ['service_id' => $pending]), 200, $isFalse);
expect_call('services/delete (active: refused)', $api->delete('services', 'delete', ['service_id' => $service]), 400);
expect_call('packages/delete (in use: refused)', $api->delete('packages', 'delete', ['package_id' => $hosting]), 400);
// Package options (PackageOptions and its option groups; not public models of the reference, see
// docs/compatibility.md): a package's option_groups, services' configoptions and getOptions.
$monthlyPrice = fn (string $price) => [['term' => 1, 'period' => 'month', 'price' => $price, 'currency' => 'USD']];
$optionGroup = expect_call('package_option_groups/add', $api->post('package_option_groups', 'add', ['vars' => ['name' => "Hosting options {$run}"]]), 200, $isInt);
$memory = expect_call('package_options/add', $api->post('package_options', 'add', ['vars' => ['label' => 'Memory', 'name' => 'memory', 'type' => 'select', 'groups' => [$optionGroup],
    'values' => [['name' => '1 GB', 'value' => '1024', 'pricing' => $monthlyPrice('0.00')], ['name' => '2 GB', 'value' => '2048', 'pricing' => $monthlyPrice('4.00')]]]]), 200, $isInt);
expect_shape('package_option', expect_call('package_options/get', $api->get('package_options', 'get', ['option_id' => $memory]), 200, fn ($v) => is_object($v) && count($v->values) === 2 && $v->values[1]->pricing[0]->price === '4.0000'),
    ['id', 'company_id', 'label', 'name', 'type', 'addable', 'editable', 'hidden', 'values', 'groups']);
expect_call('packages/edit (option_groups)', $api->put('packages', 'edit', ['package_id' => $hosting, 'vars' => ['option_groups' => [$optionGroup]]]), 200, fn ($v) => is_object($v) && $v->option_groups === [$optionGroup]);
expect_call('package_options/getByPackageId', $api->get('package_options', 'getByPackageId', ['package_id' => $hosting]), 200, fn ($v) => is_array($v) && array_map(fn ($o) => $o->id, $v) === [$memory]);
expect_call('package_option_groups/get', $api->get('package_option_groups', 'get', ['option_group_id' => $optionGroup]), 200, fn ($v) => is_object($v) && $v->options === [$memory] && $v->packages === [$hosting]);
$optioned = expect_call('services/add (configoptions)', $api->post('services', 'add', ['vars' => ['pricing_id' => $monthly, 'client_id' => $owner, 'domain' => "options-{$run}.example.com", 'configoptions' => [$memory => '2048']]]), 200, $isInt);
expect_shape('service_option', expect_call('services/getOptions', $api->get('services', 'getOptions', ['service_id' => $optioned]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->option_id === $memory && $v[0]->option_value === '2048')[0] ?? null,
    ['id', 'service_id', 'option_pricing_id', 'qty', 'value', 'option_id', 'option_label', 'option_name', 'option_type', 'option_value_id', 'option_value', 'option_value_name', 'option_pricing_price']);
expect_call('services/getRenewalPrice (with its options)', $api->get('services', 'getRenewalPrice', ['service_id' => $optioned]), 200, fn ($v) => $v === '14.0000');
expect_call('services/add (configoptions: a value not offered)', $api->post('services', 'add', ['vars' => ['pricing_id' => $monthly, 'client_id' => $owner, 'domain' => "options2-{$run}.example.com", 'configoptions' => [$memory => '4096']]]), 400,
    fn ($v, $e) => isset($e->{"configoptions[{$memory}]"}->valid));
expect_call('services/edit (configoptions)', $api->put('services', 'edit', ['service_id' => $optioned, 'vars' => ['configoptions' => [$memory => '1024']]]), 200);
expect_call('services/getOptions (edited)', $api->get('services', 'getOptions', ['service_id' => $optioned]), 200, fn ($v) => is_array($v) && ($v[0]->option_value ?? null) === '1024');
expect_call('other company: package_options/get', $other->get('package_options', 'get', ['option_id' => $memory]), 200, $isFalse);
expect_call('other company: services/getOptions', $other->get('services', 'getOptions', ['service_id' => $optioned]), 400);
expect_call('services/delete (pending, with options)', $api->delete('services', 'delete', ['service_id' => $optioned]));
// Queued service changes (ServiceChanges, docs/billing.md): with queue_service_changes on, a change
// that costs money waits for its invoice; a voided invoice cancels it.
expect_call('settings/set (queue_service_changes)', $api->put('settings', 'set', ['key' => 'queue_service_changes', 'value' => 'true']), 200);
$queued = expect_call('services/add (to queue a change)', $api->post('services', 'add', ['vars' => ['pricing_id' => $monthly, 'client_id' => $owner, 'status' => 'active', 'domain' => "queued-{$run}.example.com"]]), 200, $isInt);
expect_call('services/edit (queued: to the yearly term)', $api->put('services', 'edit', ['service_id' => $queued, 'vars' => ['pricing_id' => $yearly]]), 200);
expect_call('services/get (still monthly)', $api->get('services', 'get', ['service_id' => $queued]), 200, fn ($v) => is_object($v) && $v->pricing_id === $monthly);
$change = expect_call('service_changes/getAll', $api->get('service_changes', 'getAll', ['status' => 'pending', 'service_id' => $queued]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->pricing_id === $yearly)[0] ?? null;
expect_shape('service_change', expect_call('service_changes/get', $api->get('service_changes', 'get', ['service_change_id' => $change->id ?? 0]), 200, fn ($v) => is_object($v) && $v->status === 'pending'),
    ['id', 'service_id', 'invoice_id', 'status', 'pricing_id', 'date_renews', 'options', 'date_added', 'date_status']);
expect_call('services/edit (a second change while one is pending: refused)', $api->put('services', 'edit', ['service_id' => $queued, 'vars' => ['pricing_id' => $yearly]]), 400, fn ($v, $e) => isset($e->pricing_id->pending));
expect_call('services/processChange (invoice unpaid)', $api->post('services', 'processChange', ['service_change_id' => $change->id ?? 0]), 200, fn ($v) => $v === false);
expect_call('other company: service_changes/get', $other->get('service_changes', 'get', ['service_change_id' => $change->id ?? 0]), 200, $isFalse);
expect_call('invoices/void (the change\'s invoice)', $api->post('invoices', 'void', ['invoice_id' => $change->invoice_id ?? 0]), 200);
expect_call('services/processChange (voided: cancelled)', $api->post('services', 'processChange', ['service_change_id' => $change->id ?? 0]), 200, fn ($v) => $v === true);
expect_call('service_changes/getList', $api->get('service_changes', 'getList', ['status' => 'canceled', 'service_id' => $queued]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('service_changes/getListCount', $api->get('service_changes', 'getListCount', ['status' => 'pending', 'service_id' => $queued]), 200, fn ($v) => $v === 0);
expect_call('settings/set (queue_service_changes off)', $api->put('settings', 'set', ['key' => 'queue_service_changes', 'value' => 'false']), 200);

$contact = $api->get('clients', 'get', ['client_id' => $owner])->response()->contact_id ?? 0;
$card = expect_call('accounts/addCc', $api->post('accounts', 'addCc', ['vars' => ['contact_id' => $contact, 'first_name' => 'Grace', 'last_name' => 'Hopper', 'number' => '4242424242424242', 'expiration' => '203012', 'security_code' => '123', 'currency' => 'USD']]), 200, $isInt);
$cardRecord = expect_call('accounts/getCc', $api->get('accounts', 'getCc', ['account_id' => $card]), 200, fn ($v) => is_object($v) && $v->last4 === '4242' && $v->expiration === '203012' && !property_exists($v, 'number'));
expect_shape('account', $cardRecord, ['id', 'contact_id', 'first_name', 'last_name', 'reference_id', 'currency', 'expiration', 'last4', 'type', 'type_name', 'account_type', 'status']);
expect_call('accounts/getClientReferenceId', $api->get('accounts', 'getClientReferenceId', ['client_id' => $owner, 'gateway_id' => $gateway, 'status' => 'active', 'type' => 'cc']), 200, fn ($v) => $v === "tc_cus_{$owner}");
expect_call('other company: accounts/getClientReferenceId', $other->get('accounts', 'getClientReferenceId', ['client_id' => $owner, 'gateway_id' => $gateway]), 200, fn ($v) => $v === null);
expect_call('services/getType', $api->get('services', 'getType', ['service_id' => $service]), 200, fn ($v) => $v === 'generic_server');
expect_call('other company: services/getType', $other->get('services', 'getType', ['service_id' => $service]), 200, $isFalse);
expect_call('services/getWelcomeEmailTags', $api->get('services', 'getWelcomeEmailTags'), 200, fn ($v) => is_object($v) && in_array('name', $v->service ?? [], true) && in_array('id_code', $v->client ?? [], true));
expect_call('accounts/addCc (bad expiration)', $api->post('accounts', 'addCc', ['vars' => ['contact_id' => $contact, 'number' => '4242424242424242', 'expiration' => '12/30']]), 400, fn ($v, $e) => isset($e->expiration));
expect_call('accounts/editCc', $api->put('accounts', 'editCc', ['account_id' => $card, 'vars' => ['first_name' => 'G.']]));
expect_call('accounts/getAllCc', $api->get('accounts', 'getAllCc', ['contact_id' => $contact]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->first_name === 'G.');
expect_call('accounts/getAllCcByClient', $api->get('accounts', 'getAllCcByClient', ['client_id' => $owner]), 200, fn ($v) => is_array($v) && ($v[0]->id ?? null) === $card);
expect_call('accounts/getListCc', $api->get('accounts', 'getListCc', ['contact_id' => $contact, 'sortby' => 'last_name', 'order' => 'asc']), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('accounts/getAllAchByClient', $api->get('accounts', 'getAllAchByClient', ['client_id' => $owner]), 200, fn ($v) => $v === []);
expect_call('accounts/getCcTypes', $api->get('accounts', 'getCcTypes'), 200, fn ($v) => isset($v->visa));
expect_call('accounts/getAchTypes', $api->get('accounts', 'getAchTypes'), 200, fn ($v) => isset($v->checking, $v->savings));
expect_call('accounts/getTypes', $api->get('accounts', 'getTypes'), 200, fn ($v) => isset($v->cc, $v->ach));
expect_call('accounts/getAch (a card id)', $api->get('accounts', 'getAch', ['account_id' => $card]), 200, $isFalse);
expect_call('other company: accounts/getCc', $other->get('accounts', 'getCc', ['account_id' => $card]), 200, $isFalse);
expect_call('other company: services/get', $other->get('services', 'get', ['service_id' => $service]), 200, $isFalse);
expect_call('clients/addDebitAccount', $api->post('clients', 'addDebitAccount', ['client_id' => $owner, 'vars' => ['account_id' => $card, 'type' => 'cc']]));
expect_call('clients/getDebitAccount', $api->get('clients', 'getDebitAccount', ['client_id' => $owner]), 200, fn ($v) => is_object($v) && $v->account_id === $card && $v->type === 'cc' && $v->failed_count === 0);
expect_call('clients/setDebitAccountFailure', $api->post('clients', 'setDebitAccountFailure', ['client_id' => $owner, 'type' => 'cc', 'account_id' => $card]));
expect_call('clients/getDebitAccount (one failure)', $api->get('clients', 'getDebitAccount', ['client_id' => $owner]), 200, fn ($v) => is_object($v) && $v->failed_count === 1);
expect_call('clients/resetDebitAccountFailure', $api->post('clients', 'resetDebitAccountFailure', ['client_id' => $owner]));
expect_call('clients/deleteDebitAccount', $api->delete('clients', 'deleteDebitAccount', ['client_id' => $owner]), 200, $isTrue);
expect_call('accounts/deleteCc', $api->delete('accounts', 'deleteCc', ['account_id' => $card]));
expect_call('accounts/getAllCcByClient (deleted)', $api->get('accounts', 'getAllCcByClient', ['client_id' => $owner]), 200, fn ($v) => $v === []);

// ---- the reference's helpers: packages' pricing and proration, versions, cards, service fields, exchange rates ----
expect_call('packages/getPricingPeriods', $api->get('packages', 'getPricingPeriods', ['plural' => 'true']), 200, fn ($v) => ($v->month ?? null) === 'Months');
expect_call('packages/formatPricingTerm', $api->get('packages', 'formatPricingTerm', ['term' => 3, 'period' => 'onetime']), 200, fn ($v) => $v === 0);
expect_call('packages/getProrataDays', $api->get('packages', 'getProrataDays'), 200, fn ($v) => is_object($v) && count(get_object_vars($v)) === 28);
expect_call('packages/isProrataDay', $api->get('packages', 'isProrataDay', ['start_date' => '2026-04-16 12:00:00 UTC', 'pro_rata_day' => 16]), 200, $isTrue);
expect_call('packages/getProrateDate', $api->get('packages', 'getProrateDate', ['start_date' => '2026-04-16 12:00:00 UTC', 'period' => 'month', 'pro_rata_day' => 1]), 200, fn ($v) => is_string($v) && str_starts_with($v, '2026-05-01'));
expect_call('packages/getDaysToProrate', $api->get('packages', 'getDaysToProrate', ['start_date' => '2026-04-16 12:00:00 UTC', 'period' => 'month', 'pro_rata_day' => 1]), 200, fn ($v) => $v === 15);
expect_call('packages/getProratePrice', $api->get('packages', 'getProratePrice', ['amount' => '30.00', 'start_date' => '2026-04-16 12:00:00 UTC', 'term' => 1, 'period' => 'month', 'pro_rata_day' => 1]), 200, fn ($v) => $v === '15.0000');
expect_call('packages/getProratePrice (bad input)', $api->get('packages', 'getProratePrice', ['amount' => 'ten', 'start_date' => 'soon', 'term' => 1, 'period' => 'month', 'pro_rata_day' => 1]), 400, fn ($v, $e) => isset($e->amount, $e->start_date));
expect_call('packages/isDateAfterProrataCutoff', $api->get('packages', 'isDateAfterProrataCutoff', ['date' => '2026-04-21 12:00:00 UTC', 'cutoff_day' => 20]), 200, $isTrue);
expect_call('packages/getProrataDates', $api->get('packages', 'getProrataDates', ['pricing_id' => $monthly, 'prorate_from_date' => '2026-04-25 12:00:00 UTC', 'date_to_prorate' => '2026-05-01 12:00:00 UTC']), 200, $isFalse);
expect_call('packages/convertPricing', $api->get('packages', 'convertPricing', ['pricing' => ['currency' => 'USD', 'price' => '5.00'], 'currency' => 'EUR', 'allow_conversion' => 'true']), 200, fn ($v) => is_object($v) && $v->currency === 'EUR' && preg_match('/^\d+\.\d{4}$/', $v->price) === 1);
expect_call('packages/convertPricing (not allowed)', $api->get('packages', 'convertPricing', ['pricing' => ['currency' => 'USD', 'price' => '5.00'], 'currency' => 'EUR', 'allow_conversion' => 'false']), 200, fn ($v) => $v === null);
expect_call('packages/getAllGroups', $api->get('packages', 'getAllGroups', ['company_id' => $company, 'type' => 'standard']), 200, $isList);
expect_call('packages/getCompatiblePackages', $api->get('packages', 'getCompatiblePackages', ['package_id' => $hosting, 'module_id' => $module, 'type' => 'standard']), 200, $isList);
$web = expect_call('package_groups/add (a standard group to order)', $api->post('package_groups', 'add', ['vars' => ['name' => "Order-{$run}", 'type' => 'standard']]), 200, $isInt);
expect_call('package_groups/add (an addon group under it)', $api->post('package_groups', 'add', ['vars' => ['name' => "Addons-{$run}", 'type' => 'addon', 'parents' => [$web]]]), 200, $isInt);
expect_call('packages/getAllAddonGroups', $api->get('packages', 'getAllAddonGroups', ['parent_group_id' => $web]), 200, fn ($v) => is_array($v) && count($v) === 1 && $v[0]->type === 'addon');
expect_call('packages/edit (into the group)', $api->put('packages', 'edit', ['package_id' => $backup, 'vars' => ['groups' => [$web]]]), 200);
expect_call('packages/orderPackages', $api->post('packages', 'orderPackages', ['package_group_id' => $web, 'package_ids' => [$backup]]));
expect_call('packages/orderPackages (a package not in the group)', $api->post('packages', 'orderPackages', ['package_group_id' => $web, 'package_ids' => [$hosting]]), 400, fn ($v, $e) => isset($e->package_ids));
expect_call('settings/getVersion', $api->get('settings', 'getVersion'), 200, fn ($v) => is_string($v) && preg_match('/^\d+\.\d+\.\d+/', $v) === 1);
expect_call('settings/getDbVersion', $api->get('settings', 'getDbVersion'), 200, fn ($v) => is_string($v) && preg_match('/^\d{3}_/', $v) === 1);
expect_call('settings/upgradable', $api->get('settings', 'upgradable'), 200, $isFalse);
expect_call('accounts/luhnValid', $api->post('accounts', 'luhnValid', ['card_number' => '4242 4242 4242 4242']), 200, $isTrue);
expect_call('accounts/creditCardType', $api->post('accounts', 'creditCardType', ['card_number' => '4242424242424242']), 200, fn ($v) => $v === 'visa');
expect_call('accounts/getCardsExpireSoon', $api->get('accounts', 'getCardsExpireSoon', ['date' => '2030-12-01']), 200, $isList);
expect_call('services/searchServiceFields', $api->get('services', 'searchServiceFields', ['module_id' => $module, 'key' => 'domain', 'value' => "grace-{$run}.example.com"]), 200, fn ($v) => is_array($v) && ($v[0]->id ?? null) === $service);
expect_call('currencies/getExchangeRateProcessors', $api->get('currencies', 'getExchangeRateProcessors'), 200, fn ($v) => is_array($v) && in_array('ecb_exchange_rates', array_column($v, 'dir'), true));
expect_call('currencies/updateRates (no processor installed)', $api->post('currencies', 'updateRates'), 400, fn ($v, $e) => isset($e->exchange_rates_processor->unavailable));
expect_call('other company: services/searchServiceFields', $other->get('services', 'searchServiceFields', ['module_id' => $module, 'key' => 'domain', 'value' => "grace-{$run}.example.com"]), 200, fn ($v) => $v === []);

// ---- emails and email groups (the reference's Emails and EmailGroups) ------------------------
$isArrayOf = fn (int $n) => fn ($v) => is_array($v) && count($v) === $n;
$unpaidGroup = expect_call('email_groups/getByAction', $api->get('email_groups', 'getByAction', ['action' => 'invoice_delivery_unpaid']), 200, fn ($v) => is_object($v) && $v->type === 'client' && str_contains($v->tags, '{invoice.id_code}'))->id ?? 0;
expect_call('email_groups/getAll', $api->get('email_groups', 'getAll', ['type' => 'staff', 'core' => 'true']), 200, fn ($v) => is_array($v) && count($v) >= 2);
expect_call('email_groups/getAllByNoticeType', $api->get('email_groups', 'getAllByNoticeType', ['notice_type' => 'to', 'type' => 'staff']), 200, fn ($v) => is_array($v) && count($v) >= 2);
$group = expect_call('email_groups/add', $api->post('email_groups', 'add', ['vars' => ['action' => "newsletter_{$run}", 'type' => 'client', 'notice_type' => 'bcc', 'tags' => '{contact.first_name},{issue.title}']]), 200, $isInt);
expect_call('email_groups/edit', $api->put('email_groups', 'edit', ['id' => $group, 'vars' => ['tags' => '{contact.first_name},{issue.title},{issue.url}']]));
expect_call('email_groups/add (duplicate action)', $api->post('email_groups', 'add', ['vars' => ['action' => "newsletter_{$run}", 'type' => 'client']]), 400, fn ($v, $e) => isset($e->action->unique));
expect_call('emails/getGroup', $api->get('emails', 'getGroup', ['email_group_id' => $group]), 200, fn ($v) => is_object($v) && $v->action === "newsletter_{$run}" && str_contains($v->tags, '{issue.url}'));
expect_call('emails/getGroupList', $api->get('emails', 'getGroupList', ['sortby' => 'action', 'order' => 'desc']), 200, $isList);
expect_call('emails/getStatusTypes', $api->get('emails', 'getStatusTypes'), 200, fn ($v) => isset($v->active, $v->inactive));
$signature = expect_call('emails/addSignature', $api->post('emails', 'addSignature', ['vars' => ['company_id' => $company, 'name' => 'Editors', 'text' => "\n-- The editors", 'html' => '<p>The editors</p>']]), 200, $isInt);
expect_call('emails/editSignature', $api->put('emails', 'editSignature', ['email_signature_id' => $signature, 'vars' => ['name' => 'Editorial']]));
expect_call('emails/getSignature', $api->get('emails', 'getSignature', ['email_signature_id' => $signature]), 200, fn ($v) => is_object($v) && $v->name === 'Editorial' && $v->company_id === $company);
expect_call('emails/getSignatureList', $api->get('emails', 'getSignatureList', ['company_id' => $company, 'page' => 1, 'order_by' => ['name' => 'ASC']]), 200, $isArrayOf(1));
expect_call('emails/getSignatureListCount', $api->get('emails', 'getSignatureListCount', ['company_id' => $company]), 200, fn ($v) => $v === 1);
expect_call('emails/getAllSignatures', $api->get('emails', 'getAllSignatures', ['company_id' => $company]), 200, $isArrayOf(1));
$email = expect_call('emails/add', $api->post('emails', 'add', ['vars' => ['email_group_id' => $group, 'company_id' => $company, 'lang' => 'en_us', 'from' => 'editors@example.com', 'from_name' => 'The editors', 'subject' => 'Issue: {issue.title}', 'text' => 'Hello {contact.first_name}, read {issue.url}', 'html' => '<p>Hello {contact.first_name}</p>', 'email_signature_id' => $signature, 'include_attachments' => 1, 'status' => 'active']]), 200, $isInt);
expect_call('emails/get', $api->get('emails', 'get', ['id' => $email]), 200, fn ($v) => is_object($v) && $v->email_group_id === $group && $v->from === 'editors@example.com' && is_object($v->signature) && $v->signature->id === $signature);
expect_call('emails/getByGroupId', $api->get('emails', 'getByGroupId', ['group_id' => $group, 'lang' => 'en_us']), 200, fn ($v) => is_object($v) && $v->id === $email);
expect_call('email_groups/getAllEmails', $api->get('email_groups', 'getAllEmails', ['company_id' => $company, 'type' => 'client', 'core' => 'true', 'lang' => 'en_us']), 200, fn ($v) => is_array($v) && in_array("newsletter_{$run}", array_map(fn ($e) => $e->email_group_action, $v), true));
$attachments = expect_call('emails/addAttachments', $api->post('emails', 'addAttachments', ['email_id' => $email, 'files' => [['name' => 'issue.txt', 'type' => 'text/plain', 'content' => base64_encode('Issue one')]]]), 200, $isArrayOf(1));
expect_call('emails/getAttachments', $api->get('emails', 'getAttachments', ['email_id' => $email]), 200, fn ($v) => is_array($v) && $v[0]->name === 'issue.txt' && $v[0]->size === 9);
expect_call('emails/getAttachment', $api->get('emails', 'getAttachment', ['email_attachment_id' => $attachments[0] ?? 0]), 200, fn ($v) => is_object($v) && base64_decode($v->content) === 'Issue one');
expect_call('emails/buildEmail', $api->post('emails', 'buildEmail', ['action' => "newsletter_{$run}", 'company_id' => $company, 'lang' => 'en_us', 'tags' => ['contact' => ['first_name' => 'Ada'], 'issue' => ['title' => 'One', 'url' => 'https://example.com/1']]]), 200, fn ($v) => is_object($v) && $v->subject === 'Issue: One' && str_ends_with($v->text, "\n-- The editors"));
expect_call('emails/sendCustom', $api->post('emails', 'sendCustom', ['from' => 'editors@example.com', 'from_name' => 'The editors', 'to' => 'reader@example.com', 'subject' => 'Hello {name}', 'body' => ['text' => 'Hi {name}'], 'tags' => ['name' => 'Ada'], 'cc' => null, 'bcc' => null, 'attachments' => null, 'options' => ['to_client_id' => $owner]]), 200, $isInt);
expect_call('emails/sendCustom (header injection)', $api->post('emails', 'sendCustom', ['from' => 'editors@example.com', 'from_name' => "Eve\r\nBcc: all@example.org", 'to' => 'reader@example.com', 'subject' => 'x', 'body' => ['text' => 'x']]), 400, fn ($v, $e) => isset($e->from_name));
expect_call('emails/updateFromDomain', $api->put('emails', 'updateFromDomain', ['domain' => 'news.example.org', 'company_id' => $company]));
expect_call('emails/get (new domain)', $api->get('emails', 'get', ['id' => $email]), 200, fn ($v) => is_object($v) && $v->from === 'editors@news.example.org');
expect_call('other company: emails/get', $other->get('emails', 'get', ['id' => $email]), 200, $isFalse);
expect_call('other company: emails/getSignature', $other->get('emails', 'getSignature', ['email_signature_id' => $signature]), 200, $isFalse);
expect_call('other company: email_groups/delete', $other->delete('email_groups', 'delete', ['id' => $group]), 400);
expect_call('other company: emails/sendCustom to our client', $other->post('emails', 'sendCustom', ['from' => 'a@example.org', 'from_name' => 'A', 'to' => '', 'subject' => 'x', 'body' => ['text' => 'x'], 'options' => ['to_client_id' => $owner]]), 400);
expect_call('emails/deleteAttachment', $api->delete('emails', 'deleteAttachment', ['email_attachment_id' => $attachments[0] ?? 0]));
expect_call('emails/deleteSignature (in use: refused)', $api->delete('emails', 'deleteSignature', ['email_signature_id' => $signature]), 400, fn ($v, $e) => isset($e->email_signature_id->in_use));
expect_call('emails/delete', $api->delete('emails', 'delete', ['id' => $email]));
expect_call('emails/deleteAll', $api->delete('emails', 'deleteAll', ['email_group_id' => $group, 'company_id' => $company]));
expect_call('emails/deleteSignature', $api->delete('emails', 'deleteSignature', ['email_signature_id' => $signature]));
expect_call('email_groups/delete', $api->delete('email_groups', 'delete', ['id' => $group]));
expect_call('emails/getGroup (deleted)', $api->get('emails', 'getGroup', ['email_group_id' => $group]), 200, $isFalse);
expect_call('invoices/getAllDelivery', $api->get('invoices', 'getAllDelivery', ['invoice_ids' => [$invoice], 'delivery_method' => null, 'status' => 'all']), 200, $isList);

// ---- plugin registrations (PluginManager's actions, cards, events, messages, permissions) and staff notices ----
// support_manager's manifest lists Services.suspend in its events: the one event it may subscribe to.
$plugin = expect_call('plugin_manager/add (support_manager)', $api->post('plugin_manager', 'add', ['vars' => ['dir' => 'support_manager', 'company_id' => $company]]), 200, $isInt);
expect_call('plugin_manager/addAction', $api->post('plugin_manager', 'addAction', ['plugin_id' => $plugin, 'vars' => ['location' => 'nav_staff', 'url' => '/admin/plugin/support_manager/', 'name' => 'Support']]), 200, $isInt);
expect_call('plugin_manager/getAction', $api->get('plugin_manager', 'getAction', ['plugin_id' => $plugin, 'action' => 'nav_staff']), 200, fn ($v) => is_object($v) && $v->url === '/admin/plugin/support_manager/' && $v->plugin_dir === 'support_manager');
expect_call('plugin_manager/getActions', $api->get('plugin_manager', 'getActions', ['company_id' => $company, 'action' => 'nav_staff', 'enabled' => 1]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('plugin_manager/getAllActions', $api->get('plugin_manager', 'getAllActions', ['plugin_id' => $plugin]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('plugin_manager/addAction (javascript: refused)', $api->post('plugin_manager', 'addAction', ['plugin_id' => $plugin, 'vars' => ['url' => 'javascript:alert(1)', 'name' => 'x']]), 400, fn ($v, $e) => isset($e->url->valid));
expect_call('plugin_manager/addCard', $api->post('plugin_manager', 'addCard', ['plugin_id' => $plugin, 'vars' => ['level' => 'client', 'callback' => ['this', 'getTicketCount'], 'callback_type' => 'value', 'label' => 'Tickets', 'background' => '#eeeeee']]), 200, $isInt);
expect_call('plugin_manager/editCard', $api->put('plugin_manager', 'editCard', ['plugin_id' => $plugin, 'callback' => ['this', 'getTicketCount'], 'level' => 'client', 'vars' => ['label' => 'Open tickets']]));
expect_call('plugin_manager/getCard', $api->get('plugin_manager', 'getCard', ['plugin_id' => $plugin, 'callback' => ['this', 'getTicketCount'], 'level' => 'client']), 200, fn ($v) => is_object($v) && $v->label === 'Open tickets');
expect_call('plugin_manager/getCards', $api->get('plugin_manager', 'getCards', ['company_id' => $company, 'level' => 'client']), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('plugin_manager/getAllCards', $api->get('plugin_manager', 'getAllCards', ['plugin_id' => $plugin]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('plugin_manager/addCard (html refused)', $api->post('plugin_manager', 'addCard', ['plugin_id' => $plugin, 'vars' => ['callback' => 'x', 'callback_type' => 'html', 'label' => 'x']]), 400, fn ($v, $e) => isset($e->callback_type->valid));
expect_call('plugin_manager/deleteCard', $api->delete('plugin_manager', 'deleteCard', ['plugin_id' => $plugin, 'callback' => ['this', 'getTicketCount'], 'level' => 'client']));
expect_call('plugin_manager/addEvent', $api->post('plugin_manager', 'addEvent', ['plugin_id' => $plugin, 'vars' => ['event' => 'Services.suspend', 'callback' => ['this', 'suspended']]]), 200);
expect_call('plugin_manager/addEvent (not in its manifest)', $api->post('plugin_manager', 'addEvent', ['plugin_id' => $plugin, 'vars' => ['event' => 'Invoices.add']]), 400, fn ($v, $e) => isset($e->event->manifest));
expect_call('plugin_manager/editEvent', $api->put('plugin_manager', 'editEvent', ['plugin_id' => $plugin, 'event' => 'Services.suspend', 'vars' => ['enabled' => 0]]));
expect_call('plugin_manager/getEvent', $api->get('plugin_manager', 'getEvent', ['plugin_id' => $plugin, 'event' => 'Services.suspend']), 200, fn ($v) => is_object($v) && $v->enabled === 0 && $v->callback === 'suspended');
expect_call('plugin_manager/getEvents', $api->get('plugin_manager', 'getEvents', ['company_id' => $company, 'event' => 'Services.suspend', 'enabled' => 0]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('plugin_manager/getAllEvents', $api->get('plugin_manager', 'getAllEvents', ['plugin_id' => $plugin]), 200, fn ($v) => is_array($v) && count($v) === 1);
expect_call('plugin_manager/deleteEvent', $api->delete('plugin_manager', 'deleteEvent', ['plugin_id' => $plugin, 'event' => 'Services.suspend']));
$message = expect_call('plugin_manager/addMessage', $api->post('plugin_manager', 'addMessage', ['plugin_id' => $plugin, 'vars' => ['action' => 'support_manager_ticket_updated', 'type' => 'client', 'tags' => '{ticket.code}', 'content' => ['sms' => 'Ticket {ticket.code} was updated']]]), 200, $isInt);
expect_call('plugin_manager/editMessage', $api->put('plugin_manager', 'editMessage', ['plugin_id' => $plugin, 'vars' => ['content' => ['sms' => 'Updated: {ticket.code}']], 'message_id' => $message]));
expect_call('plugin_manager/deleteMessage', $api->delete('plugin_manager', 'deleteMessage', ['action' => 'support_manager_ticket_updated']));
expect_call('plugin_manager/addPermissionGroup', $api->post('plugin_manager', 'addPermissionGroup', ['plugin_id' => $plugin, 'vars' => ['name' => 'Support', 'level' => 'staff', 'alias' => 'support_manager.admin_main']]), 200, $isInt);
expect_call('plugin_manager/addPermission', $api->post('plugin_manager', 'addPermission', ['plugin_id' => $plugin, 'vars' => ['group_alias' => 'support_manager.admin_main', 'name' => 'Tickets', 'alias' => 'support_manager.admin_tickets', 'action' => '*']]), 200, $isInt);
expect_call('plugin_manager/deletePermission', $api->delete('plugin_manager', 'deletePermission', ['plugin_id' => $plugin, 'alias' => 'support_manager.admin_tickets', 'action' => '*']));
expect_call('plugin_manager/deletePermissionGroup', $api->delete('plugin_manager', 'deletePermissionGroup', ['plugin_id' => $plugin, 'alias' => 'support_manager.admin_main']));
expect_call('other company: plugin_manager/getAllActions', $other->get('plugin_manager', 'getAllActions', ['plugin_id' => $plugin]), 200, fn ($v) => $v === []);
expect_call('other company: plugin_manager/addAction', $other->post('plugin_manager', 'addAction', ['plugin_id' => $plugin, 'vars' => ['url' => '/x', 'name' => 'x']]), 400, fn ($v, $e) => isset($e->plugin_id->exists));
expect_call('other company: plugin_manager/deleteActions', $other->delete('plugin_manager', 'deleteActions', ['plugin_id' => $plugin]), 400);
expect_call('plugin_manager/deleteActions', $api->delete('plugin_manager', 'deleteActions', ['plugin_id' => $plugin, 'url' => '/admin/plugin/support_manager/']));
expect_call('plugin_manager/getAllActions (deleted)', $api->get('plugin_manager', 'getAllActions', ['plugin_id' => $plugin]), 200, fn ($v) => $v === []);
expect_call('staff/getNotices (no such staff member)', $api->get('staff', 'getNotices', ['staff_id' => 999999]), 200, fn ($v) => $v === []);
expect_call('staff/getAllByEmailAction', $api->get('staff', 'getAllByEmailAction', ['action' => 'staff_module_error', 'company_id' => $company, 'notice_type' => 'to', 'status' => 'active']), 200, $isList);
expect_call('staff/getQuickLinks', $api->get('staff', 'getQuickLinks', ['staff_id' => 999999, 'company_id' => $company]), 200, fn ($v) => $v === []);
expect_call('emails/getHtmlTemplate', $api->get('emails', 'getHtmlTemplate', ['action' => 'account_welcome', 'lang' => 'en_us']), 200, fn ($v) => is_string($v) && str_contains($v, '{contact.first_name}'));
expect_call('emails/getHtmlTemplate (no such email)', $api->get('emails', 'getHtmlTemplate', ['action' => 'no_such_email']), 200, $isFalse);

// ---- another company's credential sees none of it --------------------------------------------
expect_call('other company: clients/get', $other->get('clients', 'get', ['client_id' => $client]), 200, $isFalse);
expect_call('other company: invoices/get', $other->get('invoices', 'get', ['invoice_id' => $invoice]), 200, $isFalse);
expect_call('other company: transactions/get', $other->get('transactions', 'get', ['transaction_id' => $closing]), 200, $isFalse);
expect_call('other company: client_groups/getAll', $other->get('client_groups', 'getAll', ['company_id' => $company]), 200, fn ($v) => $v === []);
expect_call('other company: currencies/getAll', $other->get('currencies', 'getAll', ['company_id' => $company]), 200, fn ($v) => $v === []);
expect_call('other company: clients/getNoteList', $other->get('clients', 'getNoteList', ['client_id' => $client]), 200, fn ($v) => $v === []);
expect_call('other company: clients/setSetting', $other->post('clients', 'setSetting', ['client_id' => $client, 'key' => 'tax_id', 'value' => 'stolen']), 400);
expect_call('other company: clients/getCustomField', $other->get('clients', 'getCustomField', ['field_id' => $field]), 200, $isFalse);
expect_call('other company: clients/setCustomField', $other->post('clients', 'setCustomField', ['field_id' => $field, 'client_id' => $client, 'value' => 'GB1']), 400);
expect_call('other company: invoices/getMeta', $other->get('invoices', 'getMeta', ['invoice_id' => $invoice]), 200, $isFalse);
expect_call('other company: invoices/setMeta', $other->post('invoices', 'setMeta', ['invoice_id' => $invoice, 'key' => 'x', 'value' => 'y']), 400);
expect_call('other company: invoices/edit', $other->put('invoices', 'edit', ['invoice_id' => $invoice, 'vars' => ['note_public' => 'x']]), 400);

// ---- names as PHP resolves them -------------------------------------------------------------
expect_call('Clients/GET (case-insensitive names)', $api->get('Clients', 'GET', ['client_id' => $client]), 200, fn ($v) => is_object($v) && $v->id === $client);
expect_call('Client_Groups/getall', $api->get('Client_Groups', 'getall', ['company_id' => $company]), 200, $isList);
expect_call('clients/__construct (not callable)', $api->get('clients', '__construct'), 403);
expect_call('invoices/getPresenter (not a method here)', $api->get('invoices', 'getPresenter'), 404);

// ---- how Tally answers the reference SDK's habits ------------------------------------------
expect_call('DELETE with a body (the reference SDK)', $api->deleteWithBody('clients', 'deleteNote', ['note_id' => 1]), 400);
expect_call('flat fields instead of vars[...]', $api->post('clients', 'add', ['first_name' => 'Flat']), 400, fn ($v, $e) => str_contains($e->first_name->unknown ?? '', 'vars[first_name]'));

echo json_encode(['calls' => $calls, 'shapes' => $shapes, 'facts' => $facts], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
