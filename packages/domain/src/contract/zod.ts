import { z } from 'zod';

// In a browser the app's pages run under a Content-Security-Policy without 'unsafe-eval'. zod compiles
// object parsers with `new Function` when it may, and finds out whether it may by trying as each
// object schema is made: the try fails quietly, but the browser reports a CSP violation every time a
// page loads a module of schemas. There, zod parses without compiling (jitless). The contract's
// schemas import zod from here, so this runs before any of them is made; the server keeps the
// compiled parsers.
if ('document' in globalThis) z.config({ jitless: true });

export { z };
