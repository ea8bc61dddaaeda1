import * as authV1 from '@platform/contracts/platform/identity/v1/auth';
import { readOrigin, registration } from '@platform/grpc';
import { changePassword } from '../domain/auth/change-password.js';
import { getCurrentUser } from '../domain/auth/get-current-user.js';
import { loginWithPassword } from '../domain/auth/login-with-password.js';
import { logout } from '../domain/auth/logout.js';
import { registerUser } from '../domain/auth/register-user.js';
import type { IdentityDependencies } from '../deps.js';

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
      ),
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
      ),
    logout: async (request, context) => {
      await logout(deps, request.token, readOrigin(request.origin, context));
      return {};
    },
    getCurrentUser: (_request, context) => getCurrentUser(deps, context.principal),
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
