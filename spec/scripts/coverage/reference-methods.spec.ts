import { expect } from 'chai';
import { listedMethods, snakeCase } from '../../../scripts/coverage/reference-methods';

const SAMPLE = `# Reference
## 0. Sources
| \`notAMethod($x)\` | outside section 1 |
## 1. Public methods per model

### ClientGroups
| Methods (→ documented return) | Purpose |
|---|---|
| \`add($vars)\` → int<br>\`getDefault($company_id)\` → object/false | CRUD |

Also public: \`helper\`, \`other\`. Not for API use: \`__construct\` and 2 rule callbacks \`validate*\`.

### Emails / EmailGroups (names only)
Emails: \`add\`, \`send\`
(+ 8 \`validate*\`). EmailGroups: \`getAll\`, \`getByAction\` (+ 1 \`validate*\`). Templates are keyed by group \`action\`.

No \`CompanySettings\` model is documented.

## 2. Record shapes
| \`alsoNot($y)\` | |
`;

describe('scripts/coverage: the methods REFERENCE-MODELS.md lists', () => {
  it('reads signature tables, "Also public" names and names-only sections of §1 alone', () => {
    expect(listedMethods(SAMPLE).map((m) => `${m.model}/${m.method}${m.signed ? '*' : ''}`)).to.deep.equal([
      'client_groups/add*',
      'client_groups/getDefault*',
      'client_groups/helper',
      'client_groups/other',
      'emails/add',
      'emails/send',
      'email_groups/getAll',
      'email_groups/getByAction',
    ]);
  });

  it('names models as the API does', () => {
    expect(['ClientGroups', 'PluginManager', 'Users', 'ApiKeys'].map(snakeCase)).to.deep.equal(['client_groups', 'plugin_manager', 'users', 'api_keys']);
  });
});
