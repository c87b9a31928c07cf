import type { FastifyInstance } from 'fastify';
import { DevMailList, DevMailQuery } from '@ampere/domain/contract/messages';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { escapeHtml, sendPage } from '../twins/page.ts';
import { devMailbox } from './service.ts';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#14171f;background:#f5f6f8;line-height:1.45}
main{max-width:760px;margin:0 auto;padding:20px 16px 32px}
h1{font-size:22px;margin:0 0 6px}
nav{margin:0 0 12px;font-size:14px}
a{color:#1d3a8a}
article{background:#fff;border:1px solid #dfe2e8;border-radius:12px;padding:14px 16px;margin:12px 0}
h2{font-size:17px;margin:0 0 4px;overflow-wrap:anywhere}
.meta{font-size:13px;color:#4a5263;margin:0 0 8px;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:inherit;margin:0}
form{margin:8px 0 0}
input,button{font:inherit;padding:6px 8px;border:1px solid #b9bfcc;border-radius:8px}
button{background:#1d4ed8;border-color:#1d4ed8;color:#fff;cursor:pointer}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The built-in email sender's mailbox (decision 070), present only while SMTP is not configured,
 * as GET /api/dev/sms is only while Twilio is not: GET /api/dev/mail (JSON) and the /dev/mailbox
 * page, which lists the newest emails and links to the texts.
 */
export function messageDevRoutes(app: FastifyInstance, deps: Deps): void {
  if (app.email.kind !== 'mailbox') return;
  route(app, {
    method: 'GET',
    url: '/api/dev/mail',
    tag: 'dev',
    summary:
      'Emails the built-in email sender has "sent" (to one address with ?to=), newest first; the page /dev/mailbox shows them (absent when SMTP is configured)',
    query: DevMailQuery,
    response: DevMailList,
    handler: async ({ query }, _request, reply) => {
      reply.header('cache-control', 'no-store');
      return { emails: await devMailbox(deps.db, query.to) };
    },
  });
  app.get<{ Querystring: { to?: string } }>('/dev/mailbox', async (request, reply) => {
    const to = typeof request.query.to === 'string' && request.query.to.trim() ? request.query.to.trim() : undefined;
    const rows = await devMailbox(deps.db, to);
    const texts =
      app.sms.kind === 'console'
        ? `<form method="get" action="/api/dev/sms"><label for="phone">Texts go to the SMS outbox: a phone's texts</label> <input id="phone" name="phone" type="tel" placeholder="+16155550123" required> <button type="submit">Show texts</button></form>`
        : ' Texts go through Twilio.';
    const list =
      rows.length === 0
        ? '<p>No emails yet.</p>'
        : rows
            .map(
              (r) =>
                `<article><h2>${escapeHtml(r.subject)}</h2><p class="meta">To ${escapeHtml(r.to)} · ${escapeHtml(r.sent_at)}</p><pre>${escapeHtml(r.body)}</pre></article>`,
            )
            .join('');
    const heading = to ? `Mailbox: ${escapeHtml(to)}` : 'Mailbox';
    const body = `<h1>${heading}</h1><nav>The built-in email sender's newest emails${to ? ` · <a href="/dev/mailbox">everyone's</a>` : ''} · as JSON: <a href="/api/dev/mail">/api/dev/mail</a>.${texts}</nav>${list}`;
    return sendPage(reply, page(to ? `Mailbox: ${to}` : 'Mailbox', body));
  });
}
