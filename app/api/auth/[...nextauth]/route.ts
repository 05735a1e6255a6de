import NextAuth from 'next-auth';
import { authOptions } from '@/lib/sign-in/auth-options';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth's own endpoints (csrf, sign-in callback, session, sign-out) for the console. */
function handler(request: Request, context: Context) {
  return NextAuth(request as never, context as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
