import type { Locale } from '@platform/errors';
import type { VerificationPurpose } from '../../data/verification-repository.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface VerificationMailInput {
  purpose: VerificationPurpose;
  locale: Locale;
  username: string;
  code: string;
  link: string;
  validMinutes: number;
  siteName: string;
}

interface Texts {
  subject: string;
  greeting: string;
  intro: string;
  codeLabel: string;
  linkLabel: string;
  expiry: string;
  ignore: string;
}

/** What differs by purpose; the subject is `<site name>: <topic>`. */
type PurposeTexts = Omit<Texts, 'subject' | 'greeting' | 'expiry'> & { topic: string };

/** The frame every mail of a language shares, around the purpose's own texts. */
const FRAME: Record<Locale, (m: VerificationMailInput, p: PurposeTexts) => Texts> = {
  en: (m, { topic, ...p }) => ({
    ...p,
    subject: `${m.siteName}: ${topic}`,
    greeting: `Hello ${m.username},`,
    expiry: `The code and the link are valid for ${m.validMinutes} minutes and can be used once.`,
  }),
  zh: (m, { topic, ...p }) => ({
    ...p,
    subject: `${m.siteName}：${topic}`,
    greeting: `${m.username}，您好：`,
    expiry: `验证码和链接在 ${m.validMinutes} 分钟内有效，且只能使用一次。`,
  }),
};

const TEXTS: Record<VerificationPurpose, Record<Locale, PurposeTexts>> = {
  register: {
    en: {
      topic: 'verify your email address',
      intro: 'Please confirm your email address.',
      codeLabel: 'Your verification code:',
      linkLabel: 'Or open this link:',
      ignore: 'If you did not create an account, you can ignore this email.',
    },
    zh: {
      topic: '验证您的邮箱',
      intro: '请确认您的邮箱地址。',
      codeLabel: '您的验证码：',
      linkLabel: '或打开以下链接：',
      ignore: '如果您没有注册账号，请忽略此邮件。',
    },
  },
  reset_password: {
    en: {
      topic: 'reset your password',
      intro: 'We received a request to reset your password.',
      codeLabel: 'Your reset code:',
      linkLabel: 'Or open this link to choose a new password:',
      ignore: 'If you did not ask for this, you can ignore this email; your password stays unchanged.',
    },
    zh: {
      topic: '重置您的密码',
      intro: '我们收到了重置您密码的请求。',
      codeLabel: '您的重置验证码：',
      linkLabel: '或打开以下链接设置新密码：',
      ignore: '如果这不是您本人的操作，请忽略此邮件，您的密码不会改变。',
    },
  },
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The verification or reset mail in the recipient's language: the 6-digit code and the link. */
export function renderVerificationMail(input: VerificationMailInput): RenderedMail {
  const t = FRAME[input.locale](input, TEXTS[input.purpose][input.locale]);
  const text = [
    t.greeting,
    '',
    t.intro,
    '',
    `${t.codeLabel} ${input.code}`,
    '',
    t.linkLabel,
    input.link,
    '',
    t.expiry,
    t.ignore,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>${e(t.greeting)}</p>`,
    `<p>${e(t.intro)}</p>`,
    `<p>${e(t.codeLabel)} <strong style="font-size:20px;letter-spacing:4px">${e(input.code)}</strong></p>`,
    `<p>${e(t.linkLabel)}<br><a href="${e(input.link)}">${e(input.link)}</a></p>`,
    `<p>${e(t.expiry)}<br>${e(t.ignore)}</p>`,
  ].join('\n');
  return { subject: t.subject, text, html };
}
