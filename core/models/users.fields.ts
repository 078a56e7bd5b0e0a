import { allOptional, inputs, int, record, string, timestamp } from '../kernel/shape';

/** The fields of users/* (see `@callable({ vars, returns })` in users.ts). */

/** A user as the API shows it: never the password hash or the two-factor secret. */
export const USER = record({
  id: int(),
  username: string(),
  recovery_email: string({ format: 'email', nullable: true }),
  two_factor_mode: string({ description: '`none` unless two-factor sign-in is set up.' }),
  date_added: timestamp(),
});

export const USER_ADD = inputs({
  username: string({ required: true, example: 'ada', description: 'At most 255 characters; unique.' }),
  new_password: string({ required: true, example: 'secret12', description: 'At least 6 characters.' }),
  confirm_password: string({ required: true, example: 'secret12', description: 'The same as new_password.' }),
  recovery_email: string({ format: 'email', description: 'Blank for none.' }),
});

/**
 * An edit changes only what it names; a new password needs confirm_password too, and ends every
 * admin-area session of the user. With validate_pass, current_password must be the current one.
 */
export const USER_EDIT = [...allOptional(USER_ADD), ...inputs({ current_password: string({ description: 'Checked when validate_pass is true.' }) })];

export const USER_AUTH = inputs({
  username: string({ description: 'When given, must equal the username parameter.' }),
  password: string({ required: true, example: 'secret12' }),
});

export const USER_ID = int({ description: 'The new user id.' });
