import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The built-in provider twins' hosted pages (identity, insurance): small server-rendered HTML,
 * no outside hosts and no inline script, shown inside the web app's modal frame. When the renter
 * is done, the page's script tells its parent with
 * `postMessage({ source: 'ampere-twin', flow, outcome }, origin)` (decision 020).
 */

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#14171f;background:#f5f6f8;line-height:1.45}
main{max-width:560px;margin:0 auto;padding:20px 16px 32px}
.brand{font-size:13px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:#4a5263;margin:0 0 12px}
h1{font-size:22px;margin:0 0 6px}
p{margin:0 0 12px}
.note{font-size:14px;color:#4a5263;background:#fff7e0;border:1px solid #f0d48a;border-radius:8px;padding:8px 10px}
.card{background:#fff;border:1px solid #dfe2e8;border-radius:12px;padding:16px;margin:14px 0}
label{display:block;font-weight:600;font-size:14px;margin:10px 0 4px}
input,select{width:100%;font:inherit;padding:10px;border:1px solid #b9bfcc;border-radius:8px;background:#fff}
fieldset{border:0;padding:0;margin:0}
legend{font-weight:700;font-size:16px;margin-bottom:8px}
.choices{display:grid;gap:8px}
button{font:inherit;font-weight:600;padding:12px 14px;border-radius:8px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-align:left}
button.secondary{background:#fff;color:#1d3a8a;border-color:#9aa6c4}
button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.hint{display:block;font-weight:400;font-size:13px;opacity:.9}
.done{font-size:18px;font-weight:700}
@media (min-width:700px){main{padding-top:40px}.choices{grid-template-columns:1fr 1fr}}
`;

/**
 * A whole page. `outcome` set means the renter is done: the script posts it to the parent frame.
 */
export function twinPage(opts: {
  title: string;
  flow: 'identity' | 'insurance';
  body: string;
  outcome?: string;
  status?: number;
}): string {
  const done = opts.outcome ? ` data-twin-flow="${opts.flow}" data-twin-outcome="${escapeHtml(opts.outcome)}"` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(opts.title)}</title><style>${STYLE}</style><script src="/twin/assets/twin.js" defer></script></head><body${done}><main>${opts.body}</main></body></html>`;
}

export function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** Tells the parent frame (the web app's modal) that the renter finished, once, on load. */
const SCRIPT = `(function(){
  var b=document.body;var flow=b.getAttribute('data-twin-flow');var outcome=b.getAttribute('data-twin-outcome');
  if(!flow||!outcome||window.parent===window)return;
  window.parent.postMessage({source:'ampere-twin',flow:flow,outcome:outcome},window.location.origin);
})();`;

/** The twins' one script, served as a file so no page needs an inline script. */
export function twinAssetRoutes(app: FastifyInstance): void {
  app.get('/twin/assets/twin.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(SCRIPT),
  );
}

/** Parses the twins' HTML form posts (application/x-www-form-urlencoded) inside one plugin scope. */
export function acceptForms(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    },
  );
}
