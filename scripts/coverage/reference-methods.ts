/**
 * What REFERENCE-MODELS.md §1 lists, read as (model, method, whether a signature table shows it).
 * A `### Model` heading (two names for "A / B (names only)") starts a model; in its signature
 * table each `name(` in backticks is a method; "Also public:" lists more; a names-only section
 * lists `name` words, and "Not for API use" lines (and `validate*`) are left out.
 */
export interface ListedMethod {
  /** The API's name of the model: the class name in snake_case (ClientGroups → client_groups). */
  readonly model: string;
  readonly method: string;
  /** Shown with its signature in the model's table (not only named in prose). */
  readonly signed: boolean;
}

export function snakeCase(className: string): string {
  return className.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function listedMethods(markdown: string): ListedMethod[] {
  const part = markdown.split(/^## /m).find((s) => s.startsWith('1.')) ?? '';
  const listed = new Map<string, ListedMethod>();
  const add = (model: string, method: string, signed: boolean) => {
    const key = `${model}/${method}`;
    const known = listed.get(key);
    if (!known || (signed && !known.signed)) listed.set(key, { model, method, signed });
  };
  for (const section of part.split(/^### /m).slice(1)) {
    const [heading, ...rest] = section.split('\n');
    const body = rest.join('\n');
    const classes = heading
      .replace(/\(.*\)/, '')
      .split('/')
      .map((name) => name.trim())
      .filter(Boolean);
    if (classes.length > 1) {
      // Names only, model by model: "Emails: `a`, `b` (+ 8 `validate*`). EmailGroups: `c` ...", each list ending at its sentence.
      const text = body.replace(/\(\+ \d+ `validate\*`\)/g, '');
      const marks = [...text.matchAll(new RegExp(`\\b(${classes.join('|')}):`, 'g'))];
      marks.forEach((mark, i) => {
        const list = text.slice(mark.index! + mark[0].length, marks[i + 1]?.index ?? text.length).split(/\.\s/)[0];
        for (const [, name] of list.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)) add(snakeCase(mark[1]), name, false);
      });
      continue;
    }
    const model = snakeCase(classes[0]);
    for (const line of body.split('\n')) {
      if (/^Not for API use/.test(line.trim())) continue;
      if (line.startsWith('|') && !line.startsWith('|---') && !/^\|\s*Methods/.test(line)) {
        const first = line.split('|')[1] ?? '';
        for (const [, name] of first.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)\(/g)) add(model, name, true);
      } else if (/^Also public:/.test(line.trim())) {
        const names = line.slice(line.indexOf(':') + 1).split(/Not for API use/)[0];
        for (const [, name] of names.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)) add(model, name, false);
      }
    }
  }
  return [...listed.values()].filter((m) => !/^validate/.test(m.method) && m.method !== '__construct');
}
