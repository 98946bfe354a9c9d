import { userInfo } from 'node:os';

/** The OS account name, or '' when the OS cannot say (userInfo throws for uid-less containers). */
export function readOsUserName(read: () => { username: string } = userInfo): string {
  try {
    return read().username;
  } catch {
    return '';
  }
}
