import type { AuthProvider } from 'react-admin';
import { displayName, groupsOf, untilPageLeaves, type Login } from '../auth/login.ts';

/** Staff only; a vendor's login belongs on /me. The loading animation stays until the page goes. */
function leaveForVendorPage(): Promise<never> {
  window.location.replace('/me');
  return untilPageLeaves();
}

/**
 * react-admin's side of the login: the provider's page does the asking, so there is no login form
 * here. checkAuth starts the redirect itself, and nothing ever rejects into react-admin's own
 * logout-and-redirect path, which would fight the redirect already under way.
 */
export function createAuthProvider(login: Login): AuthProvider {
  const user = async () => {
    try {
      return await login.user();
    } catch {
      return null; // the provider is unreachable: the login page will say so
    }
  };
  return {
    async login() {
      // The provider's login page asks for the password; react-admin's form is never shown.
    },
    async checkAuth() {
      const current = await user();
      if (!current) {
        await login.signIn(login.currentPath());
        return untilPageLeaves();
      }
      if (!groupsOf(current).includes('backoffice')) return leaveForVendorPage();
    },
    async handleCallback() {
      const { user: current, returnTo } = await login.completeSignIn();
      if (!groupsOf(current).includes('backoffice')) return leaveForVendorPage();
      return { redirectTo: returnTo };
    },
    async checkError(error: { status?: number }) {
      if (error?.status !== 401) return;
      if (await login.loginAgainAfterRefusal(login.currentPath())) return untilPageLeaves();
      // The API refuses even a fresh login: say so, instead of logging in again and again.
      throw Object.assign(new Error('app.auth.refused'), { logoutUser: false });
    },
    async logout() {
      await login.signOut();
      return false;
    },
    async getIdentity() {
      const current = await user();
      if (!current) throw new Error('Not logged in');
      return { id: current.profile.sub, fullName: displayName(current) };
    },
    async getPermissions() {
      const current = await user();
      return current ? groupsOf(current) : [];
    },
    async canAccess() {
      const current = await user();
      return current ? groupsOf(current).includes('backoffice') : false;
    },
  };
}
