/** The databases Tally runs on; the column limits and the connection both branch on it. */
export type DialectName = 'sqlite' | 'postgres';
