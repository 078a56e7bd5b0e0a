import { Tx } from '../../db/schema';
import { TallyError } from '../../kernel/tally-error';

/** How far up a chain of parents is followed: addons of addons are a few levels deep at most. */
const MAX_DEPTH = 100;

/**
 * services/edit giving a service a parent: the parent must be the same client's (as services/add
 * requires), and neither the service itself nor one of its own addons. A service made its own
 * parent, or two made each other's, vanished from every list of top-level services and moved or
 * cancelled with each other; one made another client's addon was moved and cancelled with that
 * client's service.
 */
export async function checkParent(db: Tx, service: { id: number; client_id: number }, parentId: number): Promise<void> {
  const parent = await db.selectFrom('services').select(['client_id']).where('id', '=', parentId).executeTakeFirst();
  if (parent?.client_id !== service.client_id) throw TallyError.invalid({ parent_service_id: { client: "The parent service must be the same client's." } });
  let at: number | null = parentId;
  for (let depth = 0; at !== null && depth < MAX_DEPTH; depth++) {
    if (at === service.id) throw TallyError.invalid({ parent_service_id: { cycle: 'A service cannot be its own parent, nor an addon of one of its own addons.' } });
    const row: { parent_service_id: number | null } | undefined = await db.selectFrom('services').select('parent_service_id').where('id', '=', at).executeTakeFirst();
    at = row?.parent_service_id ?? null;
  }
}
