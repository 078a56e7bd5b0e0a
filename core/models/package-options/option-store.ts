import { Tx } from '../../db/schema';
import { ValueInput } from './option-vars';

/**
 * Replaces an option's values with `values`: one with an id is kept (its columns and all its pricing
 * rows rewritten), one without is added, the rest are removed with their pricing. The callers have
 * refused removing a value a service uses.
 */
export async function writeValues(db: Tx, optionId: number, values: readonly ValueInput[]): Promise<void> {
  const kept = values.filter((v) => v.id !== null).map((v) => v.id!);
  const existing = (await db.selectFrom('package_option_values').select('id').where('option_id', '=', optionId).execute()).map((r) => r.id);
  const dropped = existing.filter((id) => !kept.includes(id));
  if (existing.length) await db.deleteFrom('package_option_pricing').where('value_id', 'in', existing).execute();
  if (dropped.length) await db.deleteFrom('package_option_values').where('id', 'in', dropped).execute();
  for (const [order, { id, pricing, ...columns }] of values.entries()) {
    const row = { ...columns, sort_order: order };
    const valueId =
      id !== null
        ? (await db.updateTable('package_option_values').set(row).where('id', '=', id).execute(), id)
        : (
            await db
              .insertInto('package_option_values')
              .values({ option_id: optionId, ...row })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
    if (pricing.length)
      await db
        .insertInto('package_option_pricing')
        .values(pricing.map((p) => ({ value_id: valueId, ...p })))
        .execute();
  }
}

/** Puts an option in exactly these option groups (last in each it joins). */
export async function writeGroups(db: Tx, optionId: number, groups: readonly number[]): Promise<void> {
  const before = (await db.selectFrom('package_option_group_options').select('option_group_id').where('option_id', '=', optionId).execute()).map((r) => r.option_group_id);
  const left = before.filter((g) => !groups.includes(g));
  if (left.length) await db.deleteFrom('package_option_group_options').where('option_id', '=', optionId).where('option_group_id', 'in', left).execute();
  for (const group of groups.filter((g) => !before.includes(g))) {
    const last = await db
      .selectFrom('package_option_group_options')
      .select((eb) => eb.fn.max('sort_order').as('last'))
      .where('option_group_id', '=', group)
      .executeTakeFirst();
    await db
      .insertInto('package_option_group_options')
      .values({ option_group_id: group, option_id: optionId, sort_order: Number(last?.last ?? -1) + 1 })
      .execute();
  }
}
