import type { SendMailOptions } from 'nodemailer';
import type { OutgoingMessage } from './mailer.js';

/** The same message for every transport; the stored Message-ID is kept so a resend after a crash is the same mail. */
export function mailOptions(message: OutgoingMessage): SendMailOptions {
  return {
    from: message.from,
    to: [...message.to],
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
  };
}
