import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { OPS_BASE } from '@ampere/domain/contract/ops';
import { App } from './app/app.tsx';
import { routes } from './app/router.tsx';

const router = createBrowserRouter(routes, { basename: OPS_BASE });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App>
      <RouterProvider router={router} />
    </App>
  </StrictMode>,
);
