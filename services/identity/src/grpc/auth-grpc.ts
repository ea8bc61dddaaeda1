import * as authV1 from '@platform/contracts/platform/identity/v1/auth';
import { readOrigin, registration } from '@platform/grpc';
import { changePassword } from '../domain/auth/change-password.js';
import { getCurrentUser } from '../domain/auth/get-current-user.js';
import { loginWithPassword } from '../domain/auth/login-with-password.js';
import { logout } from '../domain/auth/logout.js';
import { registerUser } from '../domain/auth/register-user.js';
import type { IdentityDependencies } from '../deps.js';
import {
  accountMessage,
  loginResultMessage,
  teamRoleMessage,
  withApprovalStatus,
} from './identity-messages.js';

export const AUTH_SERVICE_NAME = 'platform.identity.v1.AuthService';

/** Accounts and sessions: registration, password login, logout, the caller's account. */
export function authGrpc(deps: IdentityDependencies) {
  return registration(AUTH_SERVICE_NAME, authV1.AuthServiceService, {
    register: (request, context) =>
      registerUser(
        deps,
        {
          username: request.username,
          email: request.email,
          password: request.password,
          locale: request.locale,
          termsAccepted: request.terms_accepted,
          captchaId: request.captcha_id,
          captchaToken: request.captcha_token,
        },
        readOrigin(request.origin, context),
      ).then(accountMessage),
    loginWithPassword: (request, context) =>
      loginWithPassword(
        deps,
        {
          username: request.username,
          password: request.password,
          captchaId: request.captcha_id,
          captchaToken: request.captcha_token,
          captchaAnswer: request.captcha_answer,
        },
        readOrigin(request.origin, context),
      ).then(loginResultMessage),
    logout: async (request, context) => {
      await logout(deps, request.token, readOrigin(request.origin, context));
      return {};
    },
    getCurrentUser: async (_request, context) => {
      const user = await getCurrentUser(deps, context.principal);
      return {
        ...user,
        account: withApprovalStatus(user.account),
        teams: user.teams.map((team) => ({ ...team, role: teamRoleMessage(team.role) })),
      };
    },
    changePassword: async (request, context) => {
      await changePassword(
        deps,
        context.principal,
        {
          currentPassword: request.current_password,
          newPassword: request.new_password,
          token: request.token,
        },
        readOrigin(request.origin, context),
      );
      return {};
    },
  });
}
