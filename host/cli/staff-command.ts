import { Command } from 'commander';
import { terminalText } from './terminal-text';
import { createStaffMember, listStaff, resetStaffPassword, setStaffStatus, StaffListing, unlockStaffMember } from '../admin/staff-accounts';
import { parseId, withInstallation } from './api-keys-command';
import { addStaffGroupCommands } from './staff-groups-command';

interface CreateOptions {
  username: string;
  email: string;
  password?: string;
  passwordStdin?: boolean;
  company: number;
  firstName?: string;
  lastName?: string;
}

/**
 * `tally staff list|create|reset-password|unlock|disable|enable|groups|group-add|set-group`: staff who sign in to the
 * administrative area at /admin. Run on the server itself, so creating the first staff member, or
 * getting back in after a forgotten password or a lock-out, never goes through the web.
 */
export function staffCommand(out: (text: string) => void): Command {
  const command = new Command('staff').description('Staff who sign in to the administrative area (/admin)');
  command
    .command('create')
    .description('Create a staff member with the admin role')
    .requiredOption('--username <name>', 'the name to sign in with')
    .requiredOption('--email <address>', "the staff member's email address")
    .option('--password-stdin', 'read the password from standard input (keeps it out of the shell history and process list)')
    .option('--password <password>', 'the password (prefer --password-stdin)')
    .option('--company <id>', 'the company the staff member belongs to', parseId, 1)
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .action(async (options: CreateOptions) => {
      if (Boolean(options.passwordStdin) === (options.password !== undefined)) throw new Error('Give the password with exactly one of --password-stdin and --password.');
      const password = options.passwordStdin ? await readPasswordLine() : options.password!;
      const userId = await withInstallation((i) =>
        createStaffMember(i, {
          username: options.username,
          password,
          email: options.email,
          companyId: options.company,
          firstName: options.firstName,
          lastName: options.lastName,
        }),
      );
      out(`Created staff member ${options.username} (user ${userId}). Sign in at /admin.`);
    });
  command
    .command('list')
    .description('List staff members: id, username, email, company, status')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const staff = await withInstallation(listStaff);
      if (options.json) return out(JSON.stringify(staff));
      out(staff.length ? staff.map(describe).join('\n') : 'No staff members yet: create one with `npx tally staff create`.');
    });
  command
    .command('reset-password <username>')
    .description('Set a new password (read from standard input), sign the member out everywhere and lift their lock-out')
    .action(async (username: string) => {
      const password = await readPasswordLine();
      const member = await withInstallation((i) => resetStaffPassword(i, username, password));
      out(`New password set for ${member.username}; their sessions are ended and their lock-out lifted.`);
    });
  command
    .command('unlock <username>')
    .description('Lift the sign-in lock-out of a username after repeated failed sign-ins')
    .action(async (username: string) => {
      await withInstallation((i) => unlockStaffMember(i, username));
      out(`${username} may sign in again.`);
    });
  command
    .command('disable <username>')
    .description('Stop a staff member from signing in; their sessions end at once')
    .action(async (username: string) => {
      await withInstallation((i) => setStaffStatus(i, username, 'inactive'));
      out(`${username} is disabled: they cannot sign in.`);
    });
  command
    .command('enable <username>')
    .description('Let a disabled staff member sign in again')
    .action(async (username: string) => {
      await withInstallation((i) => setStaffStatus(i, username, 'active'));
      out(`${username} is enabled.`);
    });
  addStaffGroupCommands(command, out);
  return command;
}

const describe = (s: StaffListing) => [s.id, s.username, s.email, `company ${s.company_id}`, s.role, s.status === 'active' ? 'active' : 'disabled'].map(terminalText).join('\t');

/**
 * The first line of standard input: piped (`printf '%s\n' "$PASSWORD" | ...`) or typed at a
 * terminal, where it is read without echo.
 */
function readPasswordLine(): Promise<string> {
  const stdin = process.stdin;
  const typed = stdin.isTTY === true;
  if (typed) {
    process.stderr.write('Password: ');
    stdin.setRawMode(true);
  }
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (outcome: () => void) => {
      stdin.off('data', onData).off('end', onEnd);
      if (typed) {
        stdin.setRawMode(false);
        process.stderr.write('\n');
      }
      stdin.pause();
      outcome();
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(() => resolve(text));
        if (typed && char === '\u0003') return finish(() => reject(new Error('Cancelled.')));
        if (typed && char === '\u007f') text = text.slice(0, -1);
        else text += char;
      }
    };
    const onEnd = () => finish(() => resolve(text));
    stdin.on('data', onData).on('end', onEnd);
  });
}
