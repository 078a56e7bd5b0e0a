import { ApiKeys } from './api-keys';
import { Companies } from './companies';
import { Encryption } from './encryption';
import { Settings } from './settings';
import { Users } from './users';

/** The core models, registered under their API names by every installation. */
export const coreModels = [Users, Companies, ApiKeys, Settings, Encryption];
