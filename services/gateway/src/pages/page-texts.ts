import type { Locale } from '@platform/errors';

/**
 * The pages' own wording (titles, labels, hints). Outcomes — success, 5005, 5006, 1001 field
 * reasons, the policy rules — are never written here: they come from the `@platform/errors`
 * catalog, the same texts as the API's `msg`.
 */
const TEXTS = {
  en: {
    resetTitle: 'Choose a new password',
    resetFor: 'Account: {email}',
    newPassword: 'New password',
    confirmPassword: 'Repeat the new password',
    passwordsDiffer: 'The two passwords differ',
    policyTitle: 'The password must follow these rules:',
    showPassword: 'Show the passwords',
    submitReset: 'Set the new password',
    resetDone: 'You can now sign in with your new password.',
    resetAgain: 'Ask for a new reset mail in the app if you still need one.',
    verifyTitle: 'Email verification',
    verifiedDetail: 'The address {email} is verified. You can close this page and sign in.',
    verifyFailedDetail: 'Ask for a new verification mail in the app.',
    ssoTitle: 'Single sign-on',
    ssoWorking: 'Finishing the sign-in…',
    ssoSignedIn: 'You are signed in.',
    ssoHandedToApp: 'The app has your sign-in. You can close this window.',
    ssoReturning: 'Returning to the app…',
    ssoCloseWindow: 'You can close this window and go back to the app.',
    ssoNeedsTotp: 'Two-factor authentication is needed to finish signing in; continue in the app.',
    ssoNeedsTotpSetup: 'Two-factor authentication must be set up to finish signing in; continue in the app.',
    ssoNoResult: 'This page has no sign-in result. Start the sign-in again from the app.',
    ssoFailed: 'The sign-in did not complete.',
    noScript: 'This page needs JavaScript to hand the sign-in over to the app.',
    noScriptReset: 'Without JavaScript the form still works; the rules are checked when you submit.',
  },
  zh: {
    resetTitle: '设置新密码',
    resetFor: '账号：{email}',
    newPassword: '新密码',
    confirmPassword: '再次输入新密码',
    passwordsDiffer: '两次输入的密码不一致',
    policyTitle: '密码需符合以下规则：',
    showPassword: '显示密码',
    submitReset: '设置新密码',
    resetDone: '现在可以使用新密码登录。',
    resetAgain: '如仍需重置，请在应用中重新申请重置邮件。',
    verifyTitle: '邮箱验证',
    verifiedDetail: '邮箱 {email} 已验证。您可以关闭此页面并登录。',
    verifyFailedDetail: '请在应用中重新申请验证邮件。',
    ssoTitle: '单点登录',
    ssoWorking: '正在完成登录…',
    ssoSignedIn: '登录成功。',
    ssoHandedToApp: '应用已收到登录信息，您可以关闭此窗口。',
    ssoReturning: '正在返回应用…',
    ssoCloseWindow: '您可以关闭此窗口并返回应用。',
    ssoNeedsTotp: '还需要完成两步验证才能登录，请在应用中继续。',
    ssoNeedsTotpSetup: '需要先设置两步验证才能登录，请在应用中继续。',
    ssoNoResult: '此页面没有登录结果，请在应用中重新发起登录。',
    ssoFailed: '登录未完成。',
    noScript: '此页面需要启用 JavaScript 才能把登录信息交给应用。',
    noScriptReset: '未启用 JavaScript 时表单仍可使用，提交时会检查密码规则。',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type PageTextKey = keyof (typeof TEXTS)['en'];

/** The page text in `locale`, with `{name}` placeholders filled. */
export function pageText(locale: Locale, key: PageTextKey, params: Record<string, string> = {}): string {
  return TEXTS[locale][key].replace(/\{([a-z_]+)\}/g, (whole, name: string) => params[name] ?? whole);
}
