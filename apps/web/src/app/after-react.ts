/**
 * Evaluated right after React DOM, in its chunk (vite.config.ts): this wait puts the evaluation of
 * everything else the page runs on (Mantine, TanStack Query, the app) in a later task. Evaluating
 * all of it at once held a phone's main thread for one long task on every page (decision 050).
 */
// React's modules are CommonJS, run when first imported: run now, in this task.
import 'react';
import 'react-dom/client';

await new Promise<void>((resolve) => setTimeout(resolve, 0));

export {};
