import 'next-auth';
import 'next-auth/jwt';

/**
 * What the console adds to next-auth's user and session token: the staff account's session
 * version at sign-in, and an id for the session (lib/sign-in/auth-options.ts, staff-session.ts).
 */
declare module 'next-auth' {
  interface User {
    sessionVersion?: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    sessionVersion?: number;
    sessionId?: string;
  }
}
