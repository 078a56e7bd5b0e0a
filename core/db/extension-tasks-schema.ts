/** The table of extensions' scheduled tasks (migration 012), merged into `Database` as recurring-schema.ts does. */
declare module './schema' {
  interface Database {
    extensions_task_state: ExtensionsTaskStateTable;
  }
}

export interface ExtensionsTaskStateTable {
  company_id: number;
  /** `<extension>.<task>` */
  task: string;
  /** 1: the company runs it (the default, also without a row); 0: it does not. */
  enabled: number;
  /** The last due time (UTC) a process claimed: each due time runs once. */
  last_due: string | null;
}
