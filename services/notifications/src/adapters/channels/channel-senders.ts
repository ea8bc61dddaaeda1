import type { ChannelSenders } from '../../domain/delivery/delivery-ports.js';
import { DINGTALK_TOKEN_CODES, fetchDingtalkToken, sendDingtalkAppMessage } from './dingtalk-app.js';
import { sendDingtalkRobot } from './dingtalk.js';
import { sendSmtpMail, type SmtpOptions } from './email.js';
import { FEISHU_TOKEN_CODES, fetchFeishuToken, sendFeishuAppMessage } from './feishu-app.js';
import { sendFeishuRobot } from './feishu.js';
import { sendSlack } from './slack.js';
import { sendWebhook } from './webhook.js';
import { WECOM_TOKEN_CODES, fetchWecomToken, sendWecomAppMessage } from './wecom-app.js';
import { sendWecomRobot } from './wecom.js';

/** The channels' senders as the delivery use cases reach them (domain/delivery/delivery-ports.ts). */
export function channelSenders(smtp: SmtpOptions): ChannelSenders {
  return {
    chat(channel, s, message, context) {
      switch (channel) {
        case 'dingtalk':
          return sendDingtalkRobot(s.dingtalk_webhook_url, s.dingtalk_webhook_secret, message, context);
        case 'wechat':
          return sendWecomRobot(s.wechat_webhook_url, message, context);
        case 'feishu':
          return sendFeishuRobot(s.feishu_webhook_url, s.feishu_webhook_secret, message, context);
        case 'slack':
          return sendSlack(s.slack_webhook_url, message, context);
        case 'webhook':
          return sendWebhook(s, message, context);
      }
    },
    mail: (settings, mail) => sendSmtpMail(settings, mail, smtp),
    apps: {
      dingtalk: {
        tokenCodes: DINGTALK_TOKEN_CODES,
        fetchToken: fetchDingtalkToken,
        send: sendDingtalkAppMessage,
      },
      wechat: { tokenCodes: WECOM_TOKEN_CODES, fetchToken: fetchWecomToken, send: sendWecomAppMessage },
      feishu: { tokenCodes: FEISHU_TOKEN_CODES, fetchToken: fetchFeishuToken, send: sendFeishuAppMessage },
    },
  };
}
